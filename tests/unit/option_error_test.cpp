// The one rule both front ends use to say a command-line option error.
#include "core/option_error.hpp"

#include <gtest/gtest.h>

TEST(OptionError, AMissingValueIsSaidPlainly) {
    EXPECT_EQ(wb::option_error_in_our_words("--step: 1 required TEXT missing", true), "--step needs a value");
    EXPECT_EQ(wb::option_error_in_our_words("--frames: 1 required INT missing", true), "--frames needs a value");
}

TEST(OptionError, OtherErrorsKeepCli11sWords) {
    // Not an ArgumentMismatch: the same words may mean something else.
    EXPECT_EQ(wb::option_error_in_our_words("--step: 1 required TEXT missing", false), "--step: 1 required TEXT missing");
    EXPECT_EQ(wb::option_error_in_our_words("--block: Value abc could not be converted", true),
              "--block: Value abc could not be converted");
    EXPECT_EQ(wb::option_error_in_our_words("lesson is required", true), "lesson is required");
}

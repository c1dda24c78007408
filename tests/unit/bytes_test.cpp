// tests/unit/bytes_test.cpp — host bytes: shared until written, and shared with a forked child on request.
#include "data/bytes.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

using wb::Bytes;

namespace {

// Forks a child that writes `value` over the first byte of `b`, and waits for it.
void child_writes(const Bytes& b, unsigned char value) {
    auto* p = const_cast<std::byte*>(b.data());
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        p[0] = std::byte{value};
        ::_exit(0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

}  // namespace

TEST(Bytes, StartsZeroAndACopySharesUntilOneIsWritten) {
    for (std::size_t n : {std::size_t(16), std::size_t(4) << 20}) {  // from operator new, and from mmap
        Bytes a(n);
        EXPECT_EQ(a.size(), n);
        EXPECT_TRUE(a.known_zero());
        for (std::size_t i = 0; i < n; i += 4093) ASSERT_EQ(a.data()[i], std::byte{0}) << i;

        Bytes b = a;
        EXPECT_TRUE(b.shares_block_with(a));
        b.mutable_data()[1] = std::byte{9};
        EXPECT_FALSE(b.shares_block_with(a));
        EXPECT_EQ(a.data()[1], std::byte{0});  // the other holder kept its bytes
        EXPECT_EQ(b.data()[1], std::byte{9});
        EXPECT_FALSE(b.known_zero());
        EXPECT_TRUE(a.known_zero());
        EXPECT_NE(a, b);

        const std::byte* before = b.data();
        b.mutable_data()[2] = std::byte{3};  // the only holder writes in place
        EXPECT_EQ(b.data(), before);
    }
}

TEST(Bytes, FilledAndCopiedBytesCompareByContent) {
    Bytes a(1000, std::byte{7});
    EXPECT_FALSE(a.known_zero());
    EXPECT_EQ(a.data()[999], std::byte{7});
    Bytes b = a.copy(Bytes::Mapping::Private);
    EXPECT_FALSE(b.shares_block_with(a));
    EXPECT_EQ(a, b);
    EXPECT_EQ(Bytes(), Bytes(0));
    EXPECT_NE(Bytes(3), Bytes(4));
}

TEST(Bytes, AForkedChildWritesIntoASharedBlockButNotIntoAPrivateOne) {
    Bytes shared(4096, Bytes::Mapping::SharedWithChildren);
    shared.mutable_data();
    child_writes(shared, 42);
    EXPECT_EQ(shared.data()[0], std::byte{42});

    Bytes priv(std::size_t(2) << 20);
    priv.mutable_data();
    child_writes(priv, 42);
    EXPECT_EQ(priv.data()[0], std::byte{0});
}

TEST(Bytes, ABlockHiddenFromLaterChildrenIsNotMappedInThem) {
    Bytes shared(4096, Bytes::Mapping::SharedWithChildren);
    std::byte* p = shared.mutable_data();
    p[0] = std::byte{1};
    shared.hide_from_later_children();
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        // The page is not there: touching it is a segmentation fault.
        *reinterpret_cast<volatile std::byte*>(p) = std::byte{2};
        ::_exit(0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
    EXPECT_EQ(shared.data()[0], std::byte{1});
}

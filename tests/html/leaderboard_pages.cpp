// tests/html/leaderboard_pages.cpp — writes the leaderboard pages of a
// gradebook.csv into a folder, for tests/html/leaderboard_chromium.sh to open
// in a browser: the same leaderboard_pages() and write_leaderboard() that
// `cuda-workbook-cli grade --html` calls.
//
//   wb_leaderboard_pages GRADEBOOK.csv DIR LANG TITLE
#include "core/error.hpp"
#include "core/fs.hpp"
#include "grade/gradebook.hpp"
#include "grade/leaderboard.hpp"

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s GRADEBOOK.csv DIR LANG TITLE\n", argv[0]);
        return 2;
    }
    try {
        const auto rows = wb::parse_gradebook_csv(wb::read_file(argv[1]), argv[1]);
        wb::write_leaderboard(argv[2], wb::leaderboard_pages(argv[4], rows, argv[3]));
    } catch (const wb::Error& e) {
        std::fprintf(stderr, "%s\n", e.describe().c_str());
        return 1;
    }
    return 0;
}

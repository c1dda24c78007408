// tests/unit/sha256_test.cpp — SHA-256 (core/sha256.hpp, over nettle) against known answers.
//
// The compile cache keys its entries and checks their payloads with this hash,
// so a wrong digest would silently mix up cached kernels. The first vectors are
// the FIPS 180-4 examples (NIST CSRC "SHA256.pdf" and the 1,000,000 'a' vector
// from the SHA-2 test suite). The block-boundary vectors were computed with
// Python's hashlib over the bytes 0, 1, 2, ..., n-1: those lengths are where
// padding needs one block or two (55 fits the 0x80 and the length, 56 does not)
// and where a message fills a block exactly; bytes above 0x7F check that input
// is read as unsigned.
#include "core/sha256.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace wb;

namespace {

std::string hex_of(const std::array<uint8_t, 32>& d) {
    static const char* kHex = "0123456789abcdef";
    std::string s;
    for (uint8_t b : d) {
        s += kHex[b >> 4];
        s += kHex[b & 15];
    }
    return s;
}

// Bytes 0, 1, ..., n-1 (n <= 256).
std::string counting_bytes(std::size_t n) {
    std::string s(n, '\0');
    for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>(i);
    return s;
}

struct BoundaryVector {
    std::size_t length;
    const char* digest;
};

// hashlib.sha256(bytes(range(n))).hexdigest()
constexpr BoundaryVector kBoundary[] = {
    {55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"},
    {56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"},
    {63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"},
    {64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"},
    {65, "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781"},
    {119, "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"},
    {120, "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"},
    {127, "92ca0fa6651ee2f97b884b7246a562fa71250fedefe5ebf270d31c546bfea976"},
    {128, "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5"},
    {129, "5099c6a56203f9687f7d33f4bfdf576d31dc91f6b695ecea38b2770c87631135"},
};

}  // namespace

TEST(Sha256, EmptyMessageMatchesFips180) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, AbcMatchesFips180) {
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlockMessage448BitsMatchesFips180) {
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, Message896BitsMatchesNistVector) {
    EXPECT_EQ(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                         "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionAsMatchesNistVectorInOneCallAndInUnevenPieces) {
    const char* kDigest = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), kDigest);

    // 1,000,000 = 7 * 142857 + 1: pieces of 7 bytes never line up with a block.
    Sha256 h;
    const std::string seven(7, 'a');
    for (int i = 0; i < 142857; ++i) h.update(seven);
    h.update("a");
    EXPECT_EQ(h.finish_hex(), kDigest);
}

TEST(Sha256, LengthsAroundTheBlockBoundaryMatchReferenceDigests) {
    for (const auto& v : kBoundary) {
        SCOPED_TRACE("length " + std::to_string(v.length));
        EXPECT_EQ(sha256_hex(counting_bytes(v.length)), v.digest);
    }
}

TEST(Sha256, SplittingTheInputAtEveryPointGivesTheSameDigest) {
    for (const auto& v : kBoundary) {
        const std::string msg = counting_bytes(v.length);
        for (std::size_t cut = 0; cut <= msg.size(); ++cut) {
            SCOPED_TRACE("length " + std::to_string(v.length) + " cut at " + std::to_string(cut));
            Sha256 h;
            h.update(std::string_view(msg).substr(0, cut));
            h.update(std::string_view(msg).substr(cut));
            EXPECT_EQ(h.finish_hex(), v.digest);
        }
        SCOPED_TRACE("length " + std::to_string(v.length) + " one byte at a time");
        Sha256 h;
        for (char c : msg) h.update(std::string_view(&c, 1));
        EXPECT_EQ(h.finish_hex(), v.digest);
    }
}

TEST(Sha256, FinishAndFinishHexAgree) {
    Sha256 a, b;
    a.update("abc");
    b.update("abc");
    EXPECT_EQ(hex_of(a.finish()), b.finish_hex());
}

TEST(Sha256, AfterFinishTheHasherStartsOverEmpty) {
    Sha256 h;
    h.update("abc");
    EXPECT_EQ(h.finish_hex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(h.finish_hex(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, UpdateFieldHashesALengthPrefixSoFieldBoundariesMatter) {
    Sha256 ab_c, a_bc;
    ab_c.update_field("ab");
    ab_c.update_field("c");
    a_bc.update_field("a");
    a_bc.update_field("bc");
    const std::string d1 = ab_c.finish_hex();
    EXPECT_NE(d1, a_bc.finish_hex());
    // The prefix is the decimal length and a colon: hashlib.sha256(b"2:ab1:c").
    EXPECT_EQ(d1, "430fb1b4ac43316eca81fab27a1930ab8eff8fef6a1dc7903dce44bbc2790dc5");
}

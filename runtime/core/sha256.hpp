// runtime/core/sha256.hpp — SHA-256, for cache keys and cache-entry digests.
//
// A thin class over nettle's sha256 (Debian's libnettle8), so that callers
// hash in pieces and with length-prefixed fields without touching nettle.
#pragma once

#include <nettle/sha2.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace wb {

class Sha256 {
public:
    Sha256();
    void update(std::string_view data);
    // Appends a length prefix first, so ("ab","c") and ("a","bc") differ.
    void update_field(std::string_view data);
    // The digest; the hasher then starts over, empty (nettle resets it).
    std::array<uint8_t, 32> finish();
    std::string finish_hex();

private:
    sha256_ctx ctx_;
};

std::string sha256_hex(std::string_view data);

}  // namespace wb

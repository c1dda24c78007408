// runtime/core/sha256.hpp — SHA-256, for cache keys and cache-entry digests.
#pragma once

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
    std::array<uint8_t, 32> finish();
    std::string finish_hex();

private:
    void block(const uint8_t* p);
    uint32_t h_[8];
    uint8_t buf_[64];
    uint64_t len_ = 0;
    std::size_t fill_ = 0;
};

std::string sha256_hex(std::string_view data);

}  // namespace wb

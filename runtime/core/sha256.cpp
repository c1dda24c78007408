// runtime/core/sha256.cpp — SHA-256 through nettle (core/sha256.hpp).
#include "core/sha256.hpp"

namespace wb {

static_assert(SHA256_DIGEST_SIZE == 32);

Sha256::Sha256() { sha256_init(&ctx_); }

void Sha256::update(std::string_view data) {
    sha256_update(&ctx_, data.size(), reinterpret_cast<const uint8_t*>(data.data()));
}

void Sha256::update_field(std::string_view data) {
    update(std::to_string(data.size()) + ":");
    update(data);
}

std::array<uint8_t, 32> Sha256::finish() {
    std::array<uint8_t, 32> out{};
    sha256_digest(&ctx_, out.size(), out.data());
    return out;
}

std::string Sha256::finish_hex() {
    static const char* kHex = "0123456789abcdef";
    std::string s;
    for (uint8_t b : finish()) {
        s += kHex[b >> 4];
        s += kHex[b & 15];
    }
    return s;
}

std::string sha256_hex(std::string_view data) {
    Sha256 h;
    h.update(data);
    return h.finish_hex();
}

}  // namespace wb

// runtime/emulate/static_shared.cpp — an emulated kernel library's static
// __shared__ arrays, from its ELF symbol table (static_shared.hpp).
#include "emulate/static_shared.hpp"

#include <algorithm>
#include <cstring>
#include <cxxabi.h>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>

#include <elf.h>

namespace wb {

namespace {

// "_ZZ6matmulPKfS2_PfiiiE2As" -> "As": the last name of the demangled
// "matmul(float const*, ...)::As"; a namespace-scope one keeps its own name.
std::string short_name(const char* mangled) {
    int status = 0;
    char* d = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    std::string s = d && status == 0 ? d : mangled;
    std::free(d);
    const auto colons = s.rfind("::");
    return colons == std::string::npos ? s : s.substr(colons + 2);
}

}  // namespace

const StaticSharedVar* StaticShared::at(std::size_t offset) const {
    for (const auto& v : vars)
        if (offset >= v.offset && offset < v.offset + v.bytes) return &v;
    return nullptr;
}

namespace {

StaticShared read_elf(const std::filesystem::path& library) {
    StaticShared out;
    std::ifstream in(library, std::ios::binary);
    const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (file.size() < sizeof(Elf64_Ehdr) || std::memcmp(file.data(), ELFMAG, SELFMAG) != 0 || file[EI_CLASS] != ELFCLASS64)
        return out;
    Elf64_Ehdr eh;
    std::memcpy(&eh, file.data(), sizeof eh);
    const auto read = [&](std::size_t at, void* to, std::size_t n) {
        if (at + n > file.size()) return false;
        std::memcpy(to, file.data() + at, n);
        return true;
    };
    for (unsigned i = 0; i < eh.e_phnum; ++i) {
        Elf64_Phdr ph;
        if (!read(eh.e_phoff + std::size_t(i) * eh.e_phentsize, &ph, sizeof ph)) return out;
        if (ph.p_type == PT_TLS) out.tls_bytes = ph.p_memsz;
    }
    if (out.tls_bytes == 0) return out;
    for (unsigned i = 0; i < eh.e_shnum; ++i) {
        Elf64_Shdr sh;
        if (!read(eh.e_shoff + std::size_t(i) * eh.e_shentsize, &sh, sizeof sh)) return out;
        if (sh.sh_type != SHT_SYMTAB || sh.sh_entsize != sizeof(Elf64_Sym)) continue;
        Elf64_Shdr strtab;
        if (!read(eh.e_shoff + std::size_t(sh.sh_link) * eh.e_shentsize, &strtab, sizeof strtab)) return out;
        for (std::size_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); ++k) {
            Elf64_Sym sym;
            if (!read(sh.sh_offset + k * sizeof sym, &sym, sizeof sym)) break;
            if (ELF64_ST_TYPE(sym.st_info) != STT_TLS || sym.st_size == 0 || sym.st_name >= strtab.sh_size) continue;
            const char* name = file.data() + strtab.sh_offset + sym.st_name;
            // cuda_emu.h's own thread-locals (the running thread's indices) are not shared memory.
            if (std::strstr(name, "wb_emu") != nullptr) continue;
            out.vars.push_back({short_name(name), static_cast<std::size_t>(sym.st_value), static_cast<std::size_t>(sym.st_size)});
        }
    }
    std::sort(out.vars.begin(), out.vars.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
    return out;
}

}  // namespace

StaticShared read_static_shared(const std::filesystem::path& library) {
    // A kernel library's path names its content (the build cache's hash), so
    // what one file holds is read once per process, not at every run's load.
    static std::mutex mutex;
    static std::map<std::string, StaticShared> read;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = read.find(library.string());
    if (it == read.end()) it = read.emplace(library.string(), read_elf(library)).first;
    return it->second;
}

}  // namespace wb

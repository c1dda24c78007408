// tests/unit/disk_cache_test.cpp — the disk caches stay under their caps, evict
// least recently used first, count and clear only their own files.
//
// The policy tests write fake entries with chosen mtimes into a folder of
// their own, so the order is exact and no clock is waited on. The tests
// through the real compile and reference caches compile real code under a tiny
// $WB_CACHE_MAX_MB; the CLI tests run `cuda-workbook-cli cache` as a user would.
#include "compile/cache.hpp"
#include "compile/nvrtc.hpp"
#include "core/disk_cache.hpp"
#include "core/sha256.hpp"
#include "reference/reference.hpp"

#include "cli_runner.hpp"
#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <fcntl.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace fs = std::filesystem;
using namespace wb;

namespace {

class DiskCacheTest : public ScopedCacheDirTest {
protected:
    void SetUp() override {
        ScopedCacheDirTest::SetUp();
        unsetenv("WB_CACHE_MAX_MB");
        folder_.name = "test";
        folder_.dir = dir_ / "test";
        folder_.entry_suffixes = {".wbc"};
        folder_.max_bytes = 3000;
        fs::create_directories(folder_.dir);
    }
    void TearDown() override {
        unsetenv("WB_CACHE_MAX_MB");
        ScopedCacheDirTest::TearDown();
    }

    CacheFolder folder_;
};

std::string key_of(int i) { return sha256_hex("entry " + std::to_string(i)); }

void write_bytes(const fs::path& p, std::size_t n) { std::ofstream(p, std::ios::binary) << std::string(n, 'x'); }

// mtime = now - age_s (negative: in the future).
void set_age(const fs::path& p, double age_s) {
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    long long ns = (long long)now.tv_sec * 1000000000LL + now.tv_nsec - (long long)(age_s * 1e9);
    timespec t{time_t(ns / 1000000000LL), long(ns % 1000000000LL)};
    timespec times[2] = {t, t};
    ASSERT_EQ(utimensat(AT_FDCWD, p.c_str(), times, 0), 0) << p;
}

fs::path put_entry(const CacheFolder& f, int i, std::size_t bytes, double age_s, const std::string& suffix = ".wbc") {
    fs::path p = f.dir / (key_of(i) + suffix);
    write_bytes(p, bytes);
    set_age(p, age_s);
    return p;
}

SourceText kernel_source(int i) {
    SourceText s;
    s.text = "extern \"C\" __global__ void scale(float* x, int n) {\n"
             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < n) x[i] *= " + std::to_string(i) + ".0f;\n}\n";
    s.origin = "scale.cu";
    return s;
}

CompileOptions scale_options() {
    CompileOptions o;
    o.arch = "sm_90";
    o.entries = {"scale"};
    return o;
}

}  // namespace

// ---- the policy, on fake entries ---------------------------------------------

TEST_F(DiskCacheTest, TouchedOldEntryOutlivesAnUntouchedNewerOne) {
    fs::path a = put_entry(folder_, 1, 900, 300);  // oldest, but used just now
    fs::path b = put_entry(folder_, 2, 900, 200);
    fs::path c = put_entry(folder_, 3, 900, 100);
    touch_cache_entry(a);
    fs::path d = put_entry(folder_, 4, 900, 0);  // the store that passes the 3000-byte cap
    CacheCleanup done = trim_cache(folder_, key_of(4));
    EXPECT_EQ(done.entries_removed, 1u) << "down to 90% of the cap: 2700 bytes";
    EXPECT_EQ(done.bytes_freed, 900u);
    EXPECT_TRUE(fs::exists(a)) << "touched: most recently used";
    EXPECT_FALSE(fs::exists(b)) << "least recently used goes first";
    EXPECT_TRUE(fs::exists(c));
    EXPECT_TRUE(fs::exists(d));
}

TEST_F(DiskCacheTest, CapHoldsAfterManyStoresAndTheNewestIsKept) {
    for (int i = 0; i < 100; ++i) {
        put_entry(folder_, i, 700, 1000 - i);
        trim_cache(folder_, key_of(i));
        CacheStats s = cache_stats(folder_);
        ASSERT_LE(s.bytes, folder_.max_bytes) << "after store " << i;
        ASSERT_TRUE(fs::exists(folder_.dir / (key_of(i) + ".wbc")));
    }
    EXPECT_GE(cache_stats(folder_).entries, 3u);  // trims go down to 2700 bytes: 3 x 700
    for (int i = 97; i < 100; ++i) EXPECT_TRUE(fs::exists(folder_.dir / (key_of(i) + ".wbc"))) << i;
}

TEST_F(DiskCacheTest, EntryJustStoredStaysEvenWhenItAloneIsOverTheCap) {
    put_entry(folder_, 1, 1000, 10);
    fs::path big = put_entry(folder_, 2, 5000, 20);  // older than entry 1, but just stored
    trim_cache(folder_, key_of(2));
    EXPECT_TRUE(fs::exists(big));
    EXPECT_EQ(cache_stats(folder_).entries, 1u);
}

TEST_F(DiskCacheTest, StoresWellUnderTheCapDoNotListTheFolderAgain) {
    // A stale temporary file shows whether a trim listed the folder: a listing removes it.
    put_entry(folder_, 1, 1000, 50);
    trim_cache(folder_, key_of(1));  // first store in this process: lists
    fs::path stale = folder_.dir / (key_of(9) + ".wbc.tmp-1-1");
    write_bytes(stale, 10);
    set_age(stale, double(kStaleTempAge.count()) * 2);
    put_entry(folder_, 2, 1000, 40);
    trim_cache(folder_, key_of(2));  // 2000 of 3000 bytes, as this process counts: no listing
    EXPECT_TRUE(fs::exists(stale));
    put_entry(folder_, 3, 1500, 30);
    CacheCleanup done = trim_cache(folder_, key_of(3));  // 3500: lists, and trims to 2700
    EXPECT_FALSE(fs::exists(stale));
    EXPECT_EQ(done.entries_removed, 1u);
    EXPECT_LE(cache_stats(folder_).bytes, folder_.max_bytes);
}

TEST_F(DiskCacheTest, StatsCountEntriesAndTempsButNotForeignFiles) {
    folder_.entry_suffixes = {".so", ".json"};  // an entry of two files counts once
    put_entry(folder_, 1, 100, 5, ".so");
    put_entry(folder_, 1, 20, 5, ".json");
    put_entry(folder_, 2, 300, 5, ".so");
    write_bytes(folder_.dir / (key_of(3) + ".tmp-123-456.so"), 50);
    write_bytes(folder_.dir / "README", 1000);
    write_bytes(folder_.dir / "notakey.so", 1000);
    write_bytes(folder_.dir / (key_of(4) + ".txt"), 1000);
    fs::create_symlink(folder_.dir / "README", folder_.dir / (key_of(5) + ".so"));
    CacheStats s = cache_stats(folder_);
    EXPECT_EQ(s.entries, 2u);
    EXPECT_EQ(s.bytes, 420u);
    EXPECT_EQ(s.temp_files, 1u);
    EXPECT_EQ(s.temp_bytes, 50u);
}

TEST_F(DiskCacheTest, AnEntryOfSeveralFilesIsEvictedWholeAndAgedByItsNewestFile) {
    folder_.entry_suffixes = {".so", ".json"};
    folder_.max_bytes = 2000;
    fs::path old_so = put_entry(folder_, 1, 400, 300, ".so");
    fs::path old_meta = put_entry(folder_, 1, 400, 300, ".json");
    fs::path used_so = put_entry(folder_, 2, 400, 400, ".so");
    fs::path used_meta = put_entry(folder_, 2, 400, 10, ".json");  // touched through one file
    put_entry(folder_, 3, 1000, 0, ".so");
    trim_cache(folder_, key_of(3));
    EXPECT_FALSE(fs::exists(old_so));
    EXPECT_FALSE(fs::exists(old_meta));
    EXPECT_TRUE(fs::exists(used_so));
    EXPECT_TRUE(fs::exists(used_meta));
}

TEST_F(DiskCacheTest, StaleTempFilesAreRemovedAndFreshOnesLeftForTheirWriter) {
    fs::path stale_nvrtc = folder_.dir / (key_of(1) + ".wbc.tmp-4242-99");
    fs::path stale_ref = folder_.dir / (key_of(2) + ".tmp-4242-99.cpp");
    fs::path fresh = folder_.dir / (key_of(3) + ".wbc.tmp-4343-1");
    for (const auto& p : {stale_nvrtc, stale_ref, fresh}) write_bytes(p, 10);
    set_age(stale_nvrtc, double(kStaleTempAge.count()) + 60);
    set_age(stale_ref, double(kStaleTempAge.count()) + 60);
    set_age(fresh, double(kStaleTempAge.count()) - 60);
    CacheCleanup done = trim_cache(folder_);
    EXPECT_EQ(done.temp_removed, 2u);
    EXPECT_EQ(done.temp_kept, 1u);
    EXPECT_FALSE(fs::exists(stale_nvrtc));
    EXPECT_FALSE(fs::exists(stale_ref));
    EXPECT_TRUE(fs::exists(fresh));
}

TEST_F(DiskCacheTest, ClearRemovesEntriesAndStaleTempsAndNothingElse) {
    put_entry(folder_, 1, 100, 5);
    put_entry(folder_, 2, 200, 5000);
    fs::path stale = folder_.dir / (key_of(3) + ".wbc.tmp-1-1");
    fs::path fresh = folder_.dir / (key_of(4) + ".wbc.tmp-1-2");
    write_bytes(stale, 30);
    write_bytes(fresh, 40);
    set_age(stale, double(kStaleTempAge.count()) * 2);
    fs::path foreign = folder_.dir / "notes.txt";
    write_bytes(foreign, 1);
    CacheCleanup done = clear_cache(folder_);
    EXPECT_EQ(done.entries_removed, 2u);
    EXPECT_EQ(done.temp_removed, 1u);
    EXPECT_EQ(done.temp_kept, 1u);
    EXPECT_EQ(done.bytes_freed, 330u);
    EXPECT_EQ(cache_stats(folder_).entries, 0u);
    EXPECT_TRUE(fs::exists(fresh));
    EXPECT_TRUE(fs::exists(foreign));
}

TEST_F(DiskCacheTest, MissingFolderAndVanishedFilesAreNotErrors) {
    CacheFolder none = folder_;
    none.dir = dir_ / "does-not-exist";
    EXPECT_EQ(cache_stats(none).entries, 0u);
    EXPECT_EQ(trim_cache(none).entries_removed, 0u);
    EXPECT_EQ(clear_cache(none).bytes_freed, 0u);
    touch_cache_entry(none.dir / "x.wbc");  // evicted meanwhile: nothing happens
}

TEST_F(DiskCacheTest, CapsHaveDefaultsAndWbCacheMaxMbOverridesThem) {
    EXPECT_EQ(cache_folder(CacheKind::Nvrtc).max_bytes, 256u << 20);
    EXPECT_EQ(cache_folder(CacheKind::Reference).max_bytes, 128u << 20);
    EXPECT_EQ(cache_folder(CacheKind::Nvrtc).dir, dir_ / "cuda-workbook" / "nvrtc");
    EXPECT_EQ(cache_folder(CacheKind::Nvrtc).cap_source, "default");
    setenv("WB_CACHE_MAX_MB", "0.5", 1);
    EXPECT_EQ(cache_folder(CacheKind::Nvrtc).max_bytes, 512u << 10);
    EXPECT_EQ(cache_folder(CacheKind::Reference).max_bytes, 512u << 10);
    EXPECT_EQ(cache_folder(CacheKind::Reference).cap_source, "WB_CACHE_MAX_MB");
    setenv("WB_CACHE_MAX_MB", "lots", 1);
    CacheFolder f = cache_folder(CacheKind::Nvrtc);
    EXPECT_EQ(f.max_bytes, 256u << 20);
    EXPECT_TRUE(contains(f.cap_source, "ignored")) << f.cap_source;
}

// ---- through the real caches ---------------------------------------------------

TEST_F(DiskCacheTest, CompileCacheStaysUnderATinyCapEvictsLruAndTheNewestStillHits) {
    std::vector<std::string> keys;
    {
        // The cap is 3.5 entries (one is ~6 KB: a small cubin with -lineinfo).
        CompileCache cache;
        auto r = compile_cuda(kernel_source(0), scale_options(), cache);
        ASSERT_TRUE(r.ok);
        keys.push_back(r.cache_key);
        double entry_mib = double(fs::file_size(cache.entry_path(r.cache_key))) / double(1 << 20);
        setenv("WB_CACHE_MAX_MB", std::to_string(entry_mib * 3.5).c_str(), 1);
        for (int i = 1; i < 3; ++i) {
            r = compile_cuda(kernel_source(i), scale_options(), cache);
            ASSERT_TRUE(r.ok);
            keys.push_back(r.cache_key);
        }
        ASSERT_EQ(cache_stats(cache_folder(CacheKind::Nvrtc)).entries, 3u);
    }
    CacheFolder nvrtc = cache_folder(CacheKind::Nvrtc);
    {
        // A hit in a new process (a fresh cache: memory empty) touches entry 0.
        CompileCache cache;
        auto again = compile_cuda(kernel_source(0), scale_options(), cache);
        ASSERT_EQ(again.cache_source, "disk");
    }
    {
        CompileCache cache;
        for (int i = 3; i < 8; ++i) {
            auto r = compile_cuda(kernel_source(i), scale_options(), cache);
            ASSERT_TRUE(r.ok);
            keys.push_back(r.cache_key);
            CacheStats s = cache_stats(nvrtc);
            EXPECT_LE(s.bytes, nvrtc.max_bytes) << "after compile " << i;
            if (i == 3) {
                EXPECT_TRUE(fs::exists(nvrtc.dir / (keys[0] + ".wbc"))) << "the oldest, but used since: kept";
                EXPECT_FALSE(fs::exists(nvrtc.dir / (keys[1] + ".wbc"))) << "the least recently used: gone";
            }
        }
    }
    CacheStats s = cache_stats(nvrtc);
    EXPECT_EQ(s.entries, 3u);
    EXPECT_EQ(s.temp_files, 0u);
    CompileCache fresh;
    auto last = compile_cuda(kernel_source(7), scale_options(), fresh);
    EXPECT_EQ(last.cache_source, "disk") << "the most recent entry still hits";
}

TEST_F(DiskCacheTest, ReferenceCacheEvictsTheOlderLibraryUnderATinyCap) {
    setenv("WB_CACHE_MAX_MB", "0.001", 1);  // 1 KiB: less than one library, so only the newest stays
    auto make = [](int i) {
        ReferenceSpec s;
        s.source.text = "void fill(float* x, int n) { for (int i = 0; i < n; ++i) x[i] = " + std::to_string(i) + "; }\n";
        s.source.origin = "fill.cpp";
        s.entry = "fill";
        Arg x, n;
        x.kind = Arg::Kind::Buffer, x.name = "x", x.type = DType::F32;
        n.kind = Arg::Kind::Param, n.name = "n", n.type = DType::I32;
        s.args = {x, n};
        return s;
    };
    auto first = build_reference(make(1));
    ASSERT_TRUE(first.ok);
    auto second = build_reference(make(2));
    ASSERT_TRUE(second.ok);
    EXPECT_FALSE(fs::exists(first.library));
    EXPECT_TRUE(fs::exists(second.library));
    EXPECT_TRUE(build_reference(make(2)).from_cache);
    EXPECT_EQ(cache_stats(cache_folder(CacheKind::Reference)).entries, 1u);
}

// ---- cuda-workbook-cli cache ----------------------------------------------------

TEST_F(DiskCacheTest, CliCacheStatsPrintsEachFolderWithItsEntriesSizeAndCap) {
    CacheFolder nvrtc = cache_folder(CacheKind::Nvrtc), ref = cache_folder(CacheKind::Reference);
    fs::create_directories(nvrtc.dir);
    fs::create_directories(ref.dir);
    put_entry(nvrtc, 1, 2048, 5);
    put_entry(nvrtc, 2, 2048, 5);
    put_entry(ref, 3, 1024, 5, ".so");
    std::string env = "XDG_CACHE_HOME='" + dir_.string() + "' WB_CACHE_MAX_MB=";
    auto r = run_cli("cache --stats", env);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "nvrtc: " + nvrtc.dir.string())) << r.out;
    EXPECT_TRUE(contains(r.out, "2 entries, 4.0 KiB of a 256.0 MiB cap")) << r.out;
    EXPECT_TRUE(contains(r.out, "reference: " + ref.dir.string())) << r.out;
    EXPECT_TRUE(contains(r.out, "1 entry, 1.0 KiB of a 128.0 MiB cap")) << r.out;

    r = run_cli("cache --stats --json", "XDG_CACHE_HOME='" + dir_.string() + "' WB_CACHE_MAX_MB=2");
    ASSERT_EQ(r.code, 0) << r.out;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j.at("caches").size(), 5u);  // nvrtc, reference, emulated, host, outputs
    EXPECT_EQ(j["caches"][2]["name"], "emulated");
    EXPECT_EQ(j["caches"][3]["name"], "host");
    EXPECT_EQ(j["caches"][4]["name"], "outputs");
    EXPECT_EQ(j["caches"][4]["max_bytes"], 2 << 20);
    EXPECT_EQ(j["caches"][0]["name"], "nvrtc");
    EXPECT_EQ(j["caches"][0]["entries"], 2);
    EXPECT_EQ(j["caches"][0]["bytes"], 4096);
    EXPECT_EQ(j["caches"][0]["max_bytes"], 2 << 20);
    EXPECT_EQ(j["caches"][0]["cap_source"], "WB_CACHE_MAX_MB");
    EXPECT_EQ(j["caches"][1]["entries"], 1);
}

TEST_F(DiskCacheTest, CliCacheClearRemovesTheEntriesAndSaysHowMuchWasFreed) {
    CacheFolder nvrtc = cache_folder(CacheKind::Nvrtc), ref = cache_folder(CacheKind::Reference);
    fs::create_directories(nvrtc.dir);
    fs::create_directories(ref.dir);
    fs::path a = put_entry(nvrtc, 1, 2048, 5);
    fs::path b = put_entry(ref, 2, 1024, 5, ".so");
    fs::path foreign = nvrtc.dir / "keep-me.txt";
    write_bytes(foreign, 10);
    std::string env = "XDG_CACHE_HOME='" + dir_.string() + "'";
    auto r = run_cli("cache --clear", env);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "nvrtc: removed 1 entry, freed 2.0 KiB")) << r.out;
    EXPECT_TRUE(contains(r.out, "reference: removed 1 entry, freed 1.0 KiB")) << r.out;
    EXPECT_TRUE(contains(r.out, "freed 3.0 KiB in all")) << r.out;
    EXPECT_FALSE(fs::exists(a));
    EXPECT_FALSE(fs::exists(b));
    EXPECT_TRUE(fs::exists(foreign)) << "not the workbook's file";

    r = run_cli("cache --clear --json", env);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(nlohmann::json::parse(r.out).at("bytes_freed"), 0);
    EXPECT_TRUE(contains(run_cli("cache --stats", env).out, "0 entries, 0 B")) << r.out;
}

TEST_F(DiskCacheTest, CliCacheWantsExactlyOneOfStatsOrClear) {
    std::string env = "XDG_CACHE_HOME='" + dir_.string() + "'";
    EXPECT_EQ(run_cli("cache", env).code, 2);
    EXPECT_EQ(run_cli("cache --stats --clear", env).code, 2);
    auto r = run_cli("cache --sizes", env);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.out, "unknown option '--sizes'")) << r.out;
    r = run_cli("cache --help", env);
    EXPECT_EQ(r.code, 0);
    EXPECT_TRUE(contains(r.out, "Usage: cuda-workbook-cli cache")) << r.out;
}

// tests/unit/driver_library_test.cpp — where libcuda.so.1 and libnvidia-ml.so.1 are looked for
// (runtime/driver/driver_library.hpp): WB_CUDA_DRIVER_DIR first, then the loader's own search,
// then WSL2's /usr/lib/wsl/lib. A fake libcuda.so.1 (tests/fake_driver/) stands in for a driver.
#include "driver/driver_library.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace wb {
namespace {

// A scratch folder holding copies of the fake driver under `name`, removed afterwards.
class FakeDriverDirs : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("wb_driver_lookup_" + std::to_string(::getpid()));
        fs::remove_all(root_);
    }
    void TearDown() override { fs::remove_all(root_); }
    fs::path with_fake(const std::string& folder, const std::string& name) {
        const fs::path dir = root_ / folder;
        fs::create_directories(dir);
        fs::copy_file(WB_FAKE_LIBCUDA, dir / name, fs::copy_options::overwrite_existing);
        return dir;
    }
    fs::path root_;
};

TEST(DriverLibrary, TheOverrideComesFirstThenTheLoaderThenWsl) {
    EXPECT_EQ(driver_library_candidates("libcuda.so.1", "/opt/driver"),
              (std::vector<std::string>{"/opt/driver/libcuda.so.1", "libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1"}));
    EXPECT_EQ(driver_library_candidates("libnvidia-ml.so.1", nullptr),
              (std::vector<std::string>{"libnvidia-ml.so.1", "/usr/lib/wsl/lib/libnvidia-ml.so.1"}));
    EXPECT_EQ(driver_library_candidates("libcuda.so.1", ""),
              (std::vector<std::string>{"libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1"}));
}

// As on a WSL2 system whose loader cache lacks /usr/lib/wsl/lib: the plain name does not load
// (this name is on no loader path), and the WSL folder's copy does.
TEST_F(FakeDriverDirs, TheWslFolderIsUsedWhenTheLoaderFindsNothing) {
    const std::string name = "libwb_fake_driver_wsl.so.1";
    const fs::path wsl = with_fake("wsl_lib", name);
    const DriverLibrary lib = open_driver_library(driver_library_candidates(name, nullptr, wsl.string()));
    ASSERT_NE(lib.handle, nullptr) << lib.tried;
    EXPECT_EQ(fs::path(lib.path), wsl / name);
    EXPECT_NE(dlsym(lib.handle, "cuInit"), nullptr);
    dlclose(lib.handle);
}

TEST_F(FakeDriverDirs, TheOverrideFolderWinsOverTheWslFolder) {
    const std::string name = "libwb_fake_driver_both.so.1";
    const fs::path wsl = with_fake("wsl_lib", name);
    const fs::path mine = with_fake("my_driver", name);
    const DriverLibrary lib = open_driver_library(driver_library_candidates(name, mine.c_str(), wsl.string()));
    ASSERT_NE(lib.handle, nullptr) << lib.tried;
    EXPECT_EQ(fs::path(lib.path), mine / name);
    dlclose(lib.handle);
}

TEST_F(FakeDriverDirs, WhenNothingLoadsEveryPathTriedIsNamed) {
    const std::string name = "libwb_no_such_driver.so.1";
    const DriverLibrary lib =
        open_driver_library(driver_library_candidates(name, (root_ / "empty").c_str(), (root_ / "wsl").string()));
    EXPECT_EQ(lib.handle, nullptr);
    EXPECT_NE(lib.tried.find((root_ / "empty" / name).string()), std::string::npos) << lib.tried;
    EXPECT_NE(lib.tried.find("; " + name + ":"), std::string::npos) << lib.tried;
    EXPECT_NE(lib.tried.find((root_ / "wsl" / name).string()), std::string::npos) << lib.tried;
}

// The CLI's driver comes from WB_CUDA_DRIVER_DIR when it is set, ahead of any installed driver:
// the fake one lacks every entry point but cuInit, and the CLI says which it is missing.
TEST_F(FakeDriverDirs, TheCliOpensTheDriverInWbCudaDriverDir) {
    const fs::path dir = with_fake("driver", "libcuda.so.1");
    const std::string cmd = "WB_CUDA_DRIVER_DIR='" + dir.string() + "' '" WB_CLI_PATH "' device 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
    EXPECT_TRUE(contains(out, "too old")) << out;
    EXPECT_TRUE(contains(out, "cuDriverGetVersion")) << out;
}

}  // namespace
}  // namespace wb

// tests/unit/access_record_test.cpp — what the CPU emulator's access record
// (emulate/access_record.hpp, RunRequest::access) tells a student about the
// shipped lessons: lesson 12's strided reads at stride 8 take a sector per
// thread (32 per request) and at stride 1 four, its shared tile reads whole
// sectors; lesson 09's unpadded tile reads a column with a 32-way bank
// conflict and the padded one with none; a vector add's threads each read
// global memory twice and write it once; the small cases' figures are those
// Nsight Compute measured on an H100; and the CLI prints the table, gives it
// in --json, and says where it comes from when the GPU ran the step.
#include "cli_runner.hpp"

#include "emulate/access_record.hpp"
#include "lesson/loader.hpp"
#include "pipeline/result_json.hpp"
#include "pipeline/run.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <nlohmann/json.hpp>

namespace {

using Lanes = std::vector<std::pair<std::uint64_t, unsigned>>;

// A warp's 32 lanes, lane l at offset first + l * stride, each `size` bytes.
Lanes warp(std::uint64_t first, std::uint64_t stride, unsigned size = 4) {
    Lanes v;
    for (std::uint64_t l = 0; l < 32; ++l) v.emplace_back(first + l * stride, size);
    return v;
}

TEST(AccessFigures, AWarpOfConsecutiveFloatsTakesFourSectorsAndOneEightBytesApartThirtyTwo) {
    EXPECT_EQ(wb::request_sectors(warp(0, 4)), 4);
    EXPECT_EQ(wb::request_sectors(warp(16, 4)), 5);  // not aligned to a sector: one more
    EXPECT_EQ(wb::request_sectors(warp(0, 8)), 8);
    EXPECT_EQ(wb::request_sectors(warp(0, 32)), 32);
    EXPECT_EQ(wb::request_sectors(warp(0, 0)), 1);       // every lane the same float
    EXPECT_EQ(wb::request_sectors(warp(0, 16, 16)), 16);  // float4s
}

TEST(AccessFigures, AColumnOfAnUnpaddedTileIsAThirtyTwoWayConflictAndOfAPaddedOneNone) {
    EXPECT_EQ(wb::request_wavefronts(warp(0, 4)), 1);        // a row: 32 banks
    EXPECT_EQ(wb::request_wavefronts(warp(0, 32 * 4)), 32);  // tile[32][32], a column: one bank
    EXPECT_EQ(wb::request_wavefronts(warp(0, 33 * 4)), 1);   // tile[32][33]: 32 banks
    EXPECT_EQ(wb::request_wavefronts(warp(0, 16 * 4)), 16);
    EXPECT_EQ(wb::request_wavefronts(warp(8, 0)), 1);        // one word for all: a broadcast
    EXPECT_EQ(wb::request_wavefronts(warp(0, 8, 8)), 2);     // doubles: 64 words take two passes
}

// Runs a lesson's solution on the emulator, in this process, asking for the record.
wb::RunResult recorded(const std::string& lesson, const std::string& step, const std::string& test_case,
                       std::map<std::string, double> params = {}) {
    auto loaded = wb::load_lesson(std::string(WB_SOURCE_DIR) + "/" + lesson);
    EXPECT_TRUE(loaded.ok());
    wb::RunRequest req;
    req.trusted = true;
    req.lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
    req.step = step;
    req.test_case = test_case;
    req.params = std::move(params);
    req.source = wb::SourceChoice::Solution;
    req.executor = wb::Executor::Cpu;
    req.timing = false;
    req.keep_buffers = false;
    req.access = true;
    wb::RunResult r = wb::make_local_backend()->run(req);
    EXPECT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    EXPECT_TRUE(r.access.has_value());
    return r;
}

// The line of `file` whose op and space are these (the solutions have one such access per line).
const wb::AccessLine* line_of(const wb::RunResult& r, const std::string& op, const std::string& space, int line = 0) {
    const wb::AccessLine* found = nullptr;
    for (const auto& l : r.access->lines)
        if (l.op == op && l.space == space && (line == 0 || l.line == line)) {
            EXPECT_EQ(found, nullptr) << "more than one " << op << " of " << space << " memory";
            found = &l;
        }
    return found;
}

// Sectors per request over every global load of the run, as Nsight Compute's
// l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum / l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum.
double global_load_sectors_per_request(const wb::RunResult& r) {
    long long sectors = 0, requests = 0;
    for (const auto& l : r.access->lines)
        if (l.op == "load" && l.space == "global") sectors += l.sectors, requests += l.requests;
    return requests ? double(sectors) / double(requests) : 0;
}

TEST(AccessRecord, StridedReadsAtStrideEightTakeASectorPerThreadAndAtStrideOneFour) {
    // no_tail: n = 4096, no tail, so line 14's copy is the kernel's only access.
    const wb::RunResult eight = recorded("lessons/12_coalescing.json", "strided_reads", "no_tail", {{"stride", 8}});
    const wb::AccessLine* read = line_of(eight, "load", "global");
    ASSERT_NE(read, nullptr);
    EXPECT_EQ(read->file, "solution_step1.cu");
    EXPECT_EQ(read->line, 14);
    EXPECT_DOUBLE_EQ(read->sectors_per_request, 32);
    const wb::AccessLine* write = line_of(eight, "store", "global");
    ASSERT_NE(write, nullptr);
    EXPECT_DOUBLE_EQ(write->sectors_per_request, 4);
    // 24 blocks: the first, the middle and the last are recorded, and the result says which.
    ASSERT_EQ(eight.access->launches.size(), 1u);
    EXPECT_EQ(eight.access->launches[0].blocks, 24);
    EXPECT_EQ(eight.access->launches[0].sampled, (std::vector<std::array<long long, 3>>{{0, 0, 0}, {0, 4, 0}, {2, 7, 0}}));

    const wb::RunResult one = recorded("lessons/12_coalescing.json", "strided_reads", "no_tail", {{"stride", 1}});
    ASSERT_NE(line_of(one, "load", "global"), nullptr);
    EXPECT_DOUBLE_EQ(line_of(one, "load", "global")->sectors_per_request, 4);
}

TEST(AccessRecord, TheSharedTileReadsWholeSectorsAndItsOddPitchHasNoBankConflictOnTheColumnRead) {
    const wb::RunResult r = recorded("lessons/12_coalescing.json", "shared_tile", "no_tail", {{"stride", 8}});
    const wb::AccessLine* read = line_of(r, "load", "global");
    ASSERT_NE(read, nullptr);
    EXPECT_DOUBLE_EQ(read->sectors_per_request, 4);
    // tile[tid * pitch + c], pitch 9: 32 banks.
    const wb::AccessLine* column = line_of(r, "load", "shared");
    ASSERT_NE(column, nullptr);
    EXPECT_DOUBLE_EQ(column->bank_conflict_ways, 1);
    EXPECT_DOUBLE_EQ(line_of(r, "store", "global")->sectors_per_request, 4);
}

TEST(AccessRecord, TheUnpaddedTransposeTileReadsAColumnWithAThirtyTwoWayConflictAndThePaddedOneWithNone) {
    const wb::RunResult plain = recorded("lessons/09_transpose.json", "shared_tile", "one_tile");
    const wb::AccessLine* column = line_of(plain, "load", "shared");
    ASSERT_NE(column, nullptr);
    EXPECT_EQ(column->line, 41);  // out[...] = tile[tx][r]
    EXPECT_EQ(column->requests, 32);  // 8 warps, 4 rows each
    EXPECT_DOUBLE_EQ(column->bank_conflict_ways, 32);
    EXPECT_DOUBLE_EQ(line_of(plain, "store", "shared")->bank_conflict_ways, 1);  // tile[r][tx]: a row
    EXPECT_DOUBLE_EQ(line_of(plain, "load", "global")->sectors_per_request, 4);
    EXPECT_DOUBLE_EQ(line_of(plain, "store", "global")->sectors_per_request, 4);

    const wb::RunResult padded = recorded("lessons/09_transpose.json", "padded_tile", "one_tile");
    ASSERT_NE(line_of(padded, "load", "shared"), nullptr);
    EXPECT_DOUBLE_EQ(line_of(padded, "load", "shared")->bank_conflict_ways, 1);
    EXPECT_DOUBLE_EQ(line_of(padded, "store", "shared")->bank_conflict_ways, 1);
}

TEST(AccessRecord, TheRaggedCasesGiveTheSectorsPerRequestNsightComputeMeasuredOnAnHundred) {
    // Nsight Compute on an H100 (issue 25): step 1 (stride 7) 21.4 global
    // sectors per load request, step 2 3.8. Both grids are small enough to be recorded whole.
    const wb::RunResult step1 = recorded("lessons/12_coalescing.json", "strided_reads", "ragged");
    EXPECT_EQ(step1.access->launches[0].sampled.size(), 7u);
    EXPECT_NEAR(global_load_sectors_per_request(step1), 21.4, 0.05);
    const wb::RunResult step2 = recorded("lessons/12_coalescing.json", "shared_tile", "ragged");
    EXPECT_NEAR(global_load_sectors_per_request(step2), 3.8, 0.05);
}

TEST(AccessRecord, Float4CopiesAreOneAccessAndLanesThatRanALineUnequallyAreMarked) {
    // Lesson 06 step 4, case ragged (N = 17, so every C store takes the
    // scalar path): Nsight Compute on an H200 measured line 82's STS.128 and
    // lines 90-93's LDS.128 1.00-way, and line 119 68 requests of 345 sectors.
    const wb::RunResult r = recorded("lessons/06_matmul.json", "register_tiles", "ragged");
    const wb::AccessLine* tile = line_of(r, "store", "shared", 82);
    ASSERT_NE(tile, nullptr);
    EXPECT_EQ(tile->requests, 48);  // one float4 store per thread: 8 warps x 6 tiles
    EXPECT_DOUBLE_EQ(tile->bank_conflict_ways, 1);
    for (int line : {90, 91, 92, 93}) {
        ASSERT_NE(line_of(r, "load", "shared", line), nullptr) << line;
        EXPECT_DOUBLE_EQ(line_of(r, "load", "shared", line)->bank_conflict_ways, 1) << line;
    }
    EXPECT_DOUBLE_EQ(line_of(r, "store", "shared", 64)->bank_conflict_ways, 2);  // the transposed A tile
    EXPECT_EQ(line_of(r, "store", "shared", 64)->uneven_requests, 0);
    // Lanes tx 0-3 store 4 columns per row, tx 4 one: their k-th stores pair unequally.
    const wb::AccessLine* c = line_of(r, "store", "global", 119);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->requests, 68);
    EXPECT_EQ(c->uneven_requests, 68);
    EXPECT_NEAR(double(c->sectors), 345.0, 0.05 * 345);
}

TEST(AccessRecord, EachThreadOfAVectorAddReadsGlobalMemoryTwiceAndWritesItOnce) {
    // n = 1000 in 4 blocks of 256: threads 0..999 add, the last 24 do nothing.
    const wb::RunResult r = recorded("lessons/01_vector_add.json", "one_thread_per_element", "ragged");
    ASSERT_EQ(r.access->threads.size(), 1024u);
    for (const auto& t : r.access->threads) {
        const long long i = t.block[0] * 256 + t.thread[0];
        const bool adds = i < 1000;
        EXPECT_EQ(t.global_reads, adds ? 2 : 0) << "thread " << i;
        EXPECT_EQ(t.global_writes, adds ? 1 : 0) << "thread " << i;
        EXPECT_EQ(t.global_atomics + t.shared_reads + t.shared_writes + t.shared_atomics, 0) << "thread " << i;
    }
}

// The name of buffer `i` of the record.
std::string buffer_name(const wb::RunResult& r, int i) { return r.access->buffers.at(static_cast<std::size_t>(i)).name; }

TEST(AccessRecord, TheColumnReadsFirstRequestPutsAllThirtyTwoLanesInOneBankAndThePaddedTilesInThirtyTwo) {
    const wb::RunResult plain = recorded("lessons/09_transpose.json", "shared_tile", "one_tile");
    const wb::AccessLine* column = line_of(plain, "load", "shared", 41);
    ASSERT_NE(column, nullptr);
    // 32 requests, all kept (four lines share the 128 kept in all, 16 each).
    ASSERT_EQ(column->examples.size(), wb::AccessRecord::kRequestsPerLine);
    const wb::AccessRequest& first = column->examples.front();
    EXPECT_EQ(first.launch, 0);
    EXPECT_EQ(first.block, (std::array<long long, 3>{0, 0, 0}));
    EXPECT_EQ(first.warp, 0);
    // The array by its name, its elements floats.
    EXPECT_EQ(buffer_name(plain, first.buffer), "tile");
    EXPECT_EQ(plain.access->buffers[std::size_t(first.buffer)].space, "shared");
    EXPECT_EQ(plain.access->buffers[std::size_t(first.buffer)].element_bytes, 4);
    EXPECT_EQ(first.size, 4);
    EXPECT_EQ(first.wavefronts, 32);
    ASSERT_EQ(first.lanes.size(), 32u);
    // Warp 0 is threads (0..31, 0): lane l reads tile[l][0], 128 bytes after lane l - 1, all in one bank.
    const int bank = wb::bank_of(first.lanes[0].offset);
    for (int l = 0; l < 32; ++l) {
        EXPECT_EQ(first.lanes[std::size_t(l)].lane, l);
        EXPECT_EQ(first.lanes[std::size_t(l)].offset - first.origin, l * 128) << "lane " << l;
        EXPECT_EQ(wb::bank_of(first.lanes[std::size_t(l)].offset), bank) << "lane " << l;
    }
    // Every recorded request of the line is as bad; the row store beside it is conflict-free.
    for (const auto& q : column->examples) EXPECT_EQ(q.wavefronts, 32);
    EXPECT_EQ(wb::access_cost(*column), wb::AccessCost::Heavy);
    const wb::AccessLine* row = line_of(plain, "store", "shared");
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->examples.front().wavefronts, 1);
    EXPECT_EQ(wb::access_cost(*row), wb::AccessCost::Fits);
    EXPECT_EQ(wb::access_cost(*line_of(plain, "load", "global")), wb::AccessCost::Fits);

    const wb::RunResult padded = recorded("lessons/09_transpose.json", "padded_tile", "one_tile");
    const wb::AccessLine* padded_column = line_of(padded, "load", "shared");
    ASSERT_NE(padded_column, nullptr);
    const wb::AccessRequest& p = padded_column->examples.front();
    EXPECT_EQ(p.wavefronts, 1);
    std::set<int> banks;
    for (const auto& lane : p.lanes) banks.insert(wb::bank_of(lane.offset));
    EXPECT_EQ(banks.size(), 32u);
    EXPECT_EQ(wb::access_cost(*padded_column), wb::AccessCost::Fits);
}

TEST(AccessRecord, AStrideEightReadsFirstRequestTouchesASectorPerLaneOfBufferX) {
    const wb::RunResult r = recorded("lessons/12_coalescing.json", "strided_reads", "no_tail", {{"stride", 8}});
    const wb::AccessLine* read = line_of(r, "load", "global");
    ASSERT_NE(read, nullptr);
    ASSERT_FALSE(read->examples.empty());
    const wb::AccessRequest& first = read->examples.front();
    EXPECT_EQ(buffer_name(r, first.buffer), "x");
    EXPECT_EQ(first.sectors, 32);
    ASSERT_EQ(first.lanes.size(), 32u);
    // Block (0,0,0) is column 0: lane l reads x[8 l], 32 bytes after lane l - 1.
    for (const auto& lane : first.lanes) EXPECT_EQ(lane.offset, lane.lane * 32);
    EXPECT_EQ(read->least_sectors * 8, read->sectors);  // 128 bytes a request would fit in 4 sectors
    EXPECT_EQ(wb::access_cost(*read), wb::AccessCost::Heavy);
    const wb::AccessLine* write = line_of(r, "store", "global");
    EXPECT_EQ(buffer_name(r, write->examples.front().buffer), "y");
    EXPECT_EQ(wb::access_cost(*write), wb::AccessCost::Fits);
    // The examples come from the sampled blocks, in order: the first block's first.
    for (std::size_t i = 1; i < read->examples.size(); ++i) {
        const auto& a = read->examples[i - 1].block;
        const auto& b = read->examples[i].block;
        EXPECT_LE(std::make_tuple(a[2], a[1], a[0]), std::make_tuple(b[2], b[1], b[0]));
    }
}

TEST(AccessRecord, EachVectorAddThreadListsItsReadsOfAAndBAndItsWriteOfCAtItsOwnElement) {
    const wb::RunResult r = recorded("lessons/01_vector_add.json", "one_thread_per_element", "ragged");
    ASSERT_EQ(r.access->threads.size(), 1024u);
    for (const auto& t : r.access->threads) {
        const long long i = t.block[0] * 256 + t.thread[0];
        std::set<std::tuple<std::string, std::string, long long>> got;  // (buffer, op, element)
        for (const auto& a : t.accesses) {
            const wb::AccessLine& row = r.access->lines.at(static_cast<std::size_t>(a.row));
            EXPECT_EQ(row.line, 12) << "thread " << i;  // c[i] = a[i] + b[i];
            got.insert({buffer_name(r, a.buffer), row.op, a.element});
        }
        const std::set<std::tuple<std::string, std::string, long long>> want =
            i < 1000 ? decltype(want){{"a", "load", i}, {"b", "load", i}, {"c", "store", i}} : decltype(want){};
        EXPECT_EQ(got, want) << "thread " << i;
        EXPECT_EQ(t.accesses_left_out, 0);
    }
    for (const auto& b : r.access->buffers) {
        EXPECT_EQ(b.space, "global");
        EXPECT_EQ(b.element_bytes, 4);  // f32: elements, not bytes
    }
}

TEST(AccessRecord, ATransposeThreadListsItsTileElementsAndItsElementsOfInAndOut) {
    // one_tile: 32 x 32, one block of 32 x 8 threads, each moving 4 elements; 16 accesses each, all kept.
    const wb::RunResult r = recorded("lessons/09_transpose.json", "shared_tile", "one_tile");
    ASSERT_EQ(r.access->threads.size(), 256u);
    const wb::AccessThread& t = r.access->threads[std::size_t(3 + 32 * 1)];  // threadIdx (3, 1)
    ASSERT_EQ(t.thread, (std::array<long long, 3>{3, 1, 0}));
    EXPECT_EQ(t.accesses_left_out, 0);
    std::set<std::tuple<std::string, std::string, long long>> got;  // (buffer, op, element)
    for (const auto& a : t.accesses) got.insert({buffer_name(r, a.buffer), r.access->lines.at(std::size_t(a.row)).op, a.element});
    std::set<std::tuple<std::string, std::string, long long>> want;
    for (int row = 1; row < 32; row += 8) {
        want.insert({"in", "load", row * 32 + 3});      // in[row][3]
        want.insert({"tile", "store", row * 32 + 3});   // tile[row][3]
        want.insert({"tile", "load", 3 * 32 + row});    // tile[3][row]
        want.insert({"out", "store", row * 32 + 3});    // out[row][3]
    }
    EXPECT_EQ(got, want);
}

TEST(AccessRecord, ThreeSampledBlocksOf256ThreadsKeepTheirJsonUnder256KiB) {
    // Lesson 06 step 3 at 256^3: 256 blocks, 3 recorded, each thread making 577 accesses.
    const wb::RunResult r =
        recorded("lessons/06_matmul.json", "shared_memory_tiles", "", {{"M", 256}, {"N", 256}, {"K", 256}});
    ASSERT_EQ(r.access->threads.size(), 768u);
    const std::size_t bytes = nlohmann::json(*r.access).dump().size();
    EXPECT_LT(bytes, 256u * 1024u) << bytes << " bytes";
    std::size_t kept = 0;
    for (const auto& t : r.access->threads) {
        kept += t.accesses.size();
        EXPECT_EQ(static_cast<long long>(t.accesses.size()) + t.accesses_left_out,
                  t.global_reads + t.global_writes + t.shared_reads + t.shared_writes);
    }
    EXPECT_LE(kept, wb::AccessRecord::kThreadAccesses);
    std::size_t examples = 0;
    for (const auto& l : r.access->lines) examples += l.examples.size();
    EXPECT_LE(examples, wb::AccessRecord::kExampleRequests);
    // The per-thread view draws a block of this shape.
    EXPECT_EQ(r.access->launches[0].block_dim, (std::array<long long, 3>{16, 16, 1}));
}

TEST(AccessRecord, TheCliPrintsTheTableAndItsJsonCarriesLinesAndThreads) {
    auto text = run_cli("run lessons/09_transpose.json --step 2 --case one_tile --solution --backend cpu --no-timing --access");
    EXPECT_EQ(text.code, 0) << text.out;
    EXPECT_TRUE(contains(text.out, "access  kernel 'transpose': 1 of its 1 blocks recorded: (0,0,0)")) << text.out;
    EXPECT_TRUE(contains(text.out, "line                  op      space   requests  sectors/req  ways")) << text.out;
    EXPECT_TRUE(contains(text.out, "solution_step2.cu:41  load    shared        32            -  32.00")) << text.out;

    auto json = run_cli("run lessons/12_coalescing.json --step 1 --case no_tail --param stride=8 --solution --backend cpu "
                        "--no-timing --access --json");
    EXPECT_EQ(json.code, 0) << json.out;
    const auto j = nlohmann::json::parse(json.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << json.out;
    const auto& lines = j.at("access").at("lines");
    ASSERT_FALSE(lines.empty());
    bool strided = false;
    for (const auto& l : lines)
        if (l.at("op") == "load" && l.at("space") == "global") {
            strided = true;
            EXPECT_EQ(l.at("file"), "solution_step1.cu");
            EXPECT_EQ(l.at("line"), 14);
            EXPECT_EQ(l.at("sectors_per_request"), 32.0);
            EXPECT_TRUE(l.contains("requests") && l.contains("bank_conflict_ways"));
        }
    EXPECT_TRUE(strided);
    const auto& threads = j.at("access").at("threads");
    ASSERT_EQ(threads.size(), 3u * 256u);
    EXPECT_EQ(threads[0].at("global_reads"), 1);
    EXPECT_EQ(threads[0].at("global_writes"), 1);
}

TEST(AccessRecord, OnTheGpuBackendTheRunSaysTheTableComesFromTheEmulator) {
    // No GPU here (the driver is switched off): the GPU backend compiles only, and says where the table comes from.
    auto r = run_cli("run lessons/01_vector_add.json --solution --backend gpu --access");
    EXPECT_TRUE(contains(r.out, "access  The memory table (sectors and bank conflicts per line, each thread's reads and writes) "
                                "is recorded by the CPU emulator, and this run used the GPU. Run it again with --backend cpu "
                                "to see it."))
        << r.out;
}

}  // namespace

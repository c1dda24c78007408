// app/palette.hpp — every colour the app draws with, named by its role.
//
// One place for the colours, so the same meaning has the same colour in every
// panel (a pass is the same green in the verdict, the sweep table and the
// lesson list) and a change is made once. Each is a Colour of RGBA8 bytes,
// usable as ImU32 (draw lists), ImVec4 (text and style colours) or four bytes
// (the result views' pixels, and through them the shaders; widgets/buffer_view.hpp).
// The colour maps themselves (viridis, diverging, the difference ramp) are
// curves, not swatches: buffer_view.cpp defines them.
#pragma once

#include <imgui.h>

#include <array>
#include <cstdint>

namespace wb::app {

struct Colour {
    uint8_t r = 0, g = 0, b = 0, a = 255;

    constexpr ImU32 u32() const { return IM_COL32(r, g, b, a); }
    ImVec4 vec4() const { return ImVec4(r / 255.0f, g / 255.0f, b / 255.0f, a / 255.0f); }
    constexpr std::array<uint8_t, 4> rgba8() const { return {r, g, b, a}; }
    constexpr Colour with_alpha(uint8_t alpha) const { return {r, g, b, alpha}; }
};

namespace palette {

// ---- How something went (text, badges, table cells) -------------------------------------------
constexpr Colour kPass{89, 204, 102};       // passed, a finished lesson
constexpr Colour kFail{255, 102, 102};      // failed, an error, a refusal, a lesson that does not load
constexpr Colour kCaution{242, 191, 77};    // neither: compile-only, stale, a warning, a note to read, work in progress
constexpr Colour kNote{153, 179, 230};      // a compiler note (below a warning)
constexpr Colour kUntrusted{255, 153, 77};  // the status bar's "not trusted"
constexpr Colour kWhere{115, 199, 242};     // where a run goes (the device), a source line a view points at
constexpr Colour kOnBadge{0, 0, 0};         // text on a coloured verdict badge

// ---- The lesson's problems banner ---------------------------------------------------------------
constexpr Colour kBannerBackground{89, 20, 20};
constexpr Colour kBannerText{255, 217, 217};

// ---- Compare with the solution (the editor's diff) -----------------------------------------------
constexpr Colour kOnlyYours{255, 140, 115};       // "-" lines
constexpr Colour kOnlyInSolution{115, 217, 128};  // "+" lines

// ---- Result pictures (buffer_view) ----------------------------------------------------------------
constexpr Colour kMismatch{255, 38, 26};         // a mismatched cell: its pixel, its outline
constexpr Colour kMismatchText{255, 82, 70};     // "mismatch" beside a value
constexpr Colour kUnwritten{255, 0, 255};        // NaN: an unwritten (poisoned) or invalid cell
constexpr Colour kHoveredPixel{255, 255, 255, 220};

// ---- Charts -----------------------------------------------------------------------------------
// Line plots' series in order (plot.hpp); an overlay (the CPU reference) is the
// same colour at kOverlayAlpha, drawn under the main series.
constexpr std::array<Colour, 4> kSeries{{{80, 160, 255}, {255, 150, 40}, {90, 200, 110}, {220, 80, 200}}};
constexpr uint8_t kOverlayAlpha = 150;
constexpr Colour kFailedRun{240, 70, 60};  // the ring around a run that failed (plots, roofline)
// The monitor window's quantities, and the sweep's GB/s.
constexpr Colour kMemory{90, 160, 240};
constexpr Colour kUtilisation{90, 200, 120};
constexpr Colour kBandwidth{90, 200, 120};
constexpr Colour kClock{240, 180, 70};
constexpr Colour kTemperature{240, 110, 90};
constexpr Colour kPower{200, 120, 230};
// Roofline: the roofs, the reference (cuBLAS SGEMM) line, this run and earlier ones.
constexpr Colour kRoof{240, 180, 70};
constexpr Colour kReferenceLine{150, 150, 230};
constexpr Colour kLatestRun{80, 160, 255};
constexpr Colour kEarlierRun{150, 170, 200, 160};
// Occupancy by block size: the block size in use, and the others.
constexpr Colour kCurrentBar{250, 200, 80};
constexpr Colour kOtherBar{90, 150, 220};

// ---- Memory access (the access tab, the editor's access marks) -----------------------------------
// A line's cost (runtime/emulate/access_summary.hpp, AccessCost): as few sectors
// or bank passes as its bytes need, up to twice that, more.
constexpr Colour kAccessFits{89, 204, 102};
constexpr Colour kAccessExtra{245, 160, 50};
constexpr Colour kAccessHeavy{240, 70, 55};
// The per-thread view's four parts of a cell (widgets/thread_grid.hpp).
constexpr Colour kGlobalReads{80, 160, 255};
constexpr Colour kGlobalWrites{255, 150, 40};
constexpr Colour kSharedReads{90, 200, 110};
constexpr Colour kSharedWrites{220, 80, 200};
constexpr Colour kThreadOutline{255, 255, 255, 230};  // the threads of the warp whose request is shown
// The warp picture (widgets/warp_request_view.hpp): an active lane, and a touched sector or bank word.
constexpr Colour kLane{115, 199, 242};
constexpr Colour kTouched{240, 180, 70};
constexpr Colour kUntouched{128, 128, 128, 70};

// ---- Timeline (timeline_view) -------------------------------------------------------------------
// Kernels get a shade each of one blue-green family (computed from the name).
constexpr Colour kCopyHtoD{92, 192, 104};
constexpr Colour kCopyDtoH{228, 98, 112};
constexpr Colour kCopyOnDevice{232, 182, 64};  // device to device, peer to peer
constexpr Colour kCopyHtoH{165, 165, 165};
constexpr Colour kMemset{172, 128, 222};
constexpr Colour kOtherActivity{200, 200, 200};
constexpr Colour kPageableKey{160, 160, 160};  // the legend's swatch for a pageable copy
constexpr Colour kBarText{16, 16, 24};
constexpr Colour kHatch{20, 20, 30, 150};
constexpr Colour kReturnLine{255, 214, 64};     // where the run() call returned
constexpr Colour kPastReturn{235, 60, 60, 48};  // work still running after it
constexpr Colour kPastReturnEdge{245, 70, 70};

// ---- Colours that follow the light or dark theme -----------------------------------------------
struct ThemeColours {
    // Markdown
    Colour link, emphasis, code_background;
    // The code editor: syntax (in TokenKind's order), its chrome, and diagnostics
    // (Error, Warning, Note) as glyph and squiggle, and as a line tint.
    std::array<Colour, 10> token;
    Colour line_number, current_line_number, selection, find_match, caret, current_line;
    std::array<Colour, 3> severity, severity_tint;
};

constexpr ThemeColours kDark{
    {110, 170, 255},
    {240, 190, 110},
    {255, 255, 255, 22},
    {{{212, 212, 212}, {180, 180, 180}, {86, 156, 214}, {78, 201, 176}, {197, 134, 192},
      {220, 170, 90}, {155, 155, 155}, {206, 145, 120}, {181, 206, 168}, {106, 153, 85}}},
    {110, 110, 110},
    {220, 220, 220},
    {38, 79, 120, 200},
    {160, 120, 20, 110},
    {240, 240, 240},
    {255, 255, 255, 12},
    {{{230, 60, 60}, {220, 170, 30}, {80, 150, 230}}},
    {{{230, 60, 60, 40}, {220, 170, 30, 36}, {80, 150, 230, 28}}},
};

constexpr ThemeColours kLight{
    {20, 90, 200},
    {150, 80, 0},
    {0, 0, 0, 18},
    {{{30, 30, 30}, {60, 60, 60}, {0, 0, 200}, {38, 127, 153}, {150, 0, 150},
      {160, 90, 0}, {110, 110, 110}, {163, 21, 21}, {9, 134, 88}, {0, 128, 0}}},
    {150, 150, 150},
    {40, 40, 40},
    {173, 214, 255, 220},
    {255, 200, 60, 140},
    {0, 0, 0},
    {0, 0, 0, 10},
    {{{230, 60, 60}, {220, 170, 30}, {80, 150, 230}}},
    {{{230, 60, 60, 40}, {220, 170, 30, 36}, {80, 150, 230, 28}}},
};

// The current ImGui theme's: dark when the window background is dark.
inline const ThemeColours& theme() {
    const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    return 0.299f * bg.x + 0.587f * bg.y + 0.114f * bg.z < 0.5f ? kDark : kLight;
}

}  // namespace palette
}  // namespace wb::app

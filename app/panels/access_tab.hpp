// app/panels/access_tab.hpp — the results panel's Memory access tab: what
// the threads of the last run read and wrote, from the CPU emulator's access
// record (RunResult::access; runtime/emulate/access_summary.hpp).
//
// Top to bottom: which launches and blocks were recorded (and whether the
// record was cut short); the per-line table, each figure coloured by its
// AccessCost, a click choosing the row (and moving the editor's caret to its
// line); the warp picture of one of the row's recorded requests, with
// Previous and Next; and a grid of one recorded block's threads, each cell
// coloured by its global and shared reads and writes, hovering one listing
// its first accesses. A run on the GPU says that the table comes from the
// emulator. The runtime made every figure; this tab only draws them.
// docs/memory-access.md describes it for students.
#pragma once

#include "palette.hpp"

#include "emulate/access_summary.hpp"

#include <string>
#include <vector>

namespace wb::app {

struct AppState;

void draw_access_tab(AppState& state);

// The per-line table under `title`: line, access, memory, requests, sectors
// per request, bank-conflict ways, the figures coloured by AccessCost. A
// click on a row chooses it (AppState::access_view) and moves the editor's
// caret to its line when the line is in the editor's file. Draws any list of
// lines: the emulator's record now, Nsight Compute's source counters later.
void draw_access_table(AppState& state, const std::vector<AccessLine>& lines, const char* title);

// What a click on `line`'s row does: the row is chosen, its first recorded
// request shown, and the editor's caret goes to the line when it is in the editor's file.
void choose_access_row(AppState& state, const AccessLine& line);

// The colour of a line's cost, in the table and in the editor's gutter.
Colour access_cost_colour(AccessCost cost);
// An op ("load", "store", "atomic") or a memory space ("global", "shared") as the window says it.
const char* access_word(const std::string& name, const std::string& lang);
// What hovering a line's gutter mark says: each of its rows' figures.
std::string access_mark_text(const std::vector<const AccessLine*>& rows, const std::string& lang);

}  // namespace wb::app

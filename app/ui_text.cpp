// app/ui_text.cpp — the app's labels (ui_text.hpp): typed, cached lookups into
// the one catalogue of what the workbook says (runtime/core/phrase.cpp, keys "ui.*").
#include "ui_text.hpp"

#include "widgets/widget_text.hpp"

#include "core/phrase.hpp"
#include "core/zh_hant.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

namespace wb::app {
namespace {

constexpr std::string_view kKeys[] = {
#define WB_UI_TEXT_KEY(name, key) "ui." #key,
    WB_UI_TEXTS(WB_UI_TEXT_KEY)
#undef WB_UI_TEXT_KEY
};
static_assert(std::size(kKeys) == static_cast<std::size_t>(UiText::Count_));

// Every label in `lang`, rendered once: tr() hands out pointers into these.
std::vector<std::string> render_labels(std::string_view lang) {
    std::vector<std::string> out;
    out.reserve(std::size(kKeys));
    for (std::string_view key : kKeys) out.push_back(render({{std::string(key), {}}}, lang));
    return out;
}

}  // namespace

std::string_view ui_text_key(UiText id) { return kKeys[static_cast<std::size_t>(id)]; }

const char* tr(UiText id, const std::string& lang) {
    static const std::vector<std::string> en = render_labels("en"), zh = render_labels("zh"),
                                          zh_hant = render_labels("zh-Hant");
    const std::string_view which = workbook_language(lang);
    const std::vector<std::string>& labels = which == "zh-Hant" ? zh_hant : which == "zh" ? zh : en;
    return labels[static_cast<std::size_t>(id)].c_str();
}

WidgetText widget_text_in(const std::string& lang) {
    WidgetText w;
    w.zoom_help = tr(UiText::WZoomHelp, lang);
    w.no_picture = tr(UiText::WNoPicture, lang);
    w.mismatch = tr(UiText::WMismatch, lang);
    w.row_column = tr(UiText::WRowColumn, lang);
    w.index = tr(UiText::WIndex, lang);
    w.first_values = tr(UiText::WFirstValues, lang);
    w.sampled_values = tr(UiText::WSampledValues, lang);
    w.find = tr(UiText::WFind, lang);
    w.no_runs = tr(UiText::WNoRuns, lang);
    w.run = tr(UiText::WRun, lang);
    w.value = tr(UiText::WValue, lang);
    w.values_drawn = tr(UiText::WValuesDrawn, lang);
    w.mismatched_pixels = tr(UiText::WMismatchedPixels, lang);
    w.mismatched_cells = tr(UiText::WMismatchedCells, lang);
    w.mismatched_cell = tr(UiText::WMismatchedCell, lang);
    w.timeline_lane = tr(UiText::WTimelineLane, lang);
    w.timeline_kernel = tr(UiText::WTimelineKernel, lang);
    w.timeline_copy = tr(UiText::WTimelineCopy, lang);
    w.timeline_start_duration = tr(UiText::WTimelineStartDuration, lang);
    w.timeline_bytes_rate = tr(UiText::WTimelineBytesRate, lang);
    w.timeline_grid_block = tr(UiText::WTimelineGridBlock, lang);
    w.timeline_in_graph = tr(UiText::WTimelineInGraph, lang);
    w.timeline_pageable = tr(UiText::WTimelinePageable, lang);
    w.timeline_pageable_short = tr(UiText::WTimelinePageableShort, lang);
    w.timeline_past_return = tr(UiText::WTimelinePastReturn, lang);
    w.timeline_returned = tr(UiText::WTimelineReturned, lang);
    w.timeline_nothing = tr(UiText::WTimelineNothing, lang);
    return w;
}

std::string all_ui_text() {
    // Every sentence of the catalogue, the app's labels and the runtime's alike, is drawn.
    std::string all;
    for (std::string_view key : phrase_keys())
        for (const char* lang : {"en", "zh", "zh-Hant"}) all += render({{std::string(key), {}}}, lang);
    return all;
}

}  // namespace wb::app

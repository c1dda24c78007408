// app/app_run.cpp — start-up, the frame loop and the window layout.
//
// Lessons are found and loaded before any window exists, so a usage mistake
// (a wrong --lesson) is reported without needing a display. The layout is
// fixed for now: menu bar, lesson list on the left, the lesson in the middle,
// a status bar at the bottom; each is a panel in app/panels/.
#include "app_run.hpp"

#include "app_state.hpp"
#include "fonts.hpp"
#include "gl_window.hpp"
#include "lesson_catalog.hpp"
#include "panels/panels.hpp"
#include "screenshot.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace wb::app {
namespace {

// Dear ImGui's context and its two backends, torn down in reverse order and
// before the window they draw into.
class ImGuiSession {
public:
    explicit ImGuiSession(GLFWwindow* window) {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        // The layout is fixed and rebuilt each frame; an imgui.ini would only
        // litter the current folder (and CI's). Saved layout comes with docking.
        ImGui::GetIO().IniFilename = nullptr;
        ImGui_ImplGlfw_InitForOpenGL(window, true);
        ImGui_ImplOpenGL3_Init("#version 330 core");
    }
    ~ImGuiSession() {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    ImGuiSession(const ImGuiSession&) = delete;
    ImGuiSession& operator=(const ImGuiSession&) = delete;
};

void apply_style(float scale) {
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0.0f;
    style.ChildRounding = 4.0f;
    style.FrameRounding = 3.0f;
    style.TabRounding = 3.0f;
    style.WindowBorderSize = 0.0f;
    style.ScaleAllSizes(scale);
}

// Every lesson string a student may see, so its characters get into the font
// atlas even when they are outside the common Chinese set.
std::string lesson_text_for_glyphs(const std::vector<LessonEntry>& lessons) {
    std::string text;
    auto add = [&](const LocalizedText& t) {
        for (const auto& [lang, s] : t.by_lang) text += s;
    };
    for (const LessonEntry& entry : lessons) {
        if (!entry.ok()) continue;
        add(entry.lesson->title);
        add(entry.lesson->summary);
        for (const Step& step : entry.lesson->steps) {
            add(step.title);
            add(step.instructions);
            text += step.starter.text;
            for (const LocalizedText& hint : step.hints) add(hint);
        }
    }
    return text;
}

int find_lesson(const std::vector<LessonEntry>& lessons, const std::string& id) {
    for (int i = 0; i < static_cast<int>(lessons.size()); ++i) {
        const LessonEntry& entry = lessons[static_cast<std::size_t>(i)];
        if (entry.id() == id || entry.file.stem() == id) return i;
    }
    return -1;
}

void draw_frame(AppState& state, const Fonts& fonts) {
    const float menu_height = draw_main_menu(state);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const ImVec2 origin(viewport->WorkPos.x, viewport->Pos.y + menu_height);
    const ImVec2 size(viewport->Size.x, viewport->Size.y - menu_height);
    const float status_height = ImGui::GetFrameHeight();
    const float list_width = std::min(280.0f * state.ui_scale, size.x * 0.3f);
    const float body_height = size.y - status_height;

    draw_lesson_list(state, {origin, ImVec2(list_width, body_height)});
    draw_lesson_overview(state, fonts,
                         {ImVec2(origin.x + list_width, origin.y), ImVec2(size.x - list_width, body_height)});
    draw_status_bar(state, {ImVec2(origin.x, origin.y + body_height), ImVec2(size.x, status_height)});
}

}  // namespace

int run_app(const AppOptions& options) {
    AppState state;
    state.lang = options.lang;

    FolderSearch search = find_lessons_folder(options.lessons_dir);
    if (!search.folder && !options.lessons_dir.empty()) {
        std::fprintf(stderr, "cuda-workbook: %s\n", search.error.c_str());
        return 2;
    }
    if (search.folder) {
        state.folder = *search.folder;
        state.lessons = load_catalog(state.folder.dir);
    } else {
        // Still open the window: it says there are no lessons, which is
        // friendlier to someone who double-clicked the app than a silent exit.
        std::fprintf(stderr, "cuda-workbook: %s\n", search.error.c_str());
        state.folder.found_by = "not found";
    }
    for (const LessonEntry& entry : state.lessons)
        for (const LessonIssue& issue : entry.issues)
            std::fprintf(stderr, "cuda-workbook: %s\n", issue.to_string().c_str());

    int first = state.lessons.empty() ? -1 : 0;
    if (!options.lesson_id.empty()) {
        first = find_lesson(state.lessons, options.lesson_id);
        if (first < 0) {
            std::string known;
            for (const LessonEntry& entry : state.lessons) known += (known.empty() ? "" : ", ") + entry.id();
            std::fprintf(stderr, "cuda-workbook: no lesson '%s' in %s (lessons: %s)\n",
                         options.lesson_id.c_str(), state.folder.dir.string().c_str(),
                         known.empty() ? "none" : known.c_str());
            return 2;
        }
    }
    if (first >= 0) select_lesson(state, first);

    WindowSpec spec;
    spec.width = options.width;
    spec.height = options.height;
    // A test run wants its frames now, not paced to the display's refresh.
    spec.vsync = options.frames == 0;
    std::string error;
    std::unique_ptr<GlWindow> window = GlWindow::create(spec, error);
    if (!window) {
        std::fprintf(stderr, "cuda-workbook: %s\n", error.c_str());
        return 1;
    }
    state.ui_scale = window->content_scale();
    {
        int ww = 0, wh = 0, fw = 0, fh = 0;
        window->window_size(ww, wh);
        window->framebuffer_size(fw, fh);
        std::printf("window %dx%d, framebuffer %dx%d, scale %.2f, OpenGL %s on %s\n", ww, wh, fw, fh,
                    state.ui_scale, window->gl_version().c_str(), window->gl_renderer().c_str());
    }
    if (const LessonEntry* entry = selected_entry(state)) {
        if (const Step* step = selected_step(state))
            std::printf("opened lesson %s step %s\n", entry->id().c_str(), step->id.c_str());
        else
            std::printf("opened lesson %s (not loaded: %zu issues)\n", entry->id().c_str(), entry->issues.size());
    } else {
        std::printf("opened no lesson: none found in %s\n", state.folder.dir.string().c_str());
    }
    std::fflush(stdout);

    ImGuiSession imgui(window->handle());
    apply_style(state.ui_scale);
    const Fonts fonts = load_fonts(state.ui_scale, lesson_text_for_glyphs(state.lessons));

    int frame = 0;
    // Drawing only when something happened keeps an idle window from costing a
    // CPU core on software GL (students without a GPU run exactly that). After
    // an event a few more frames are drawn, because ImGui settles hover and
    // layout changes over the next frames; the timeout keeps the cursor blinking.
    constexpr double kIdleTimeout = 0.5;
    constexpr int kFramesAfterEvent = 3;
    int busy_frames = kFramesAfterEvent;
    while (!window->should_close()) {
        if (options.frames > 0 || busy_frames > 0) {
            glfwPollEvents();
            --busy_frames;
        } else {
            const double start = glfwGetTime();
            glfwWaitEventsTimeout(kIdleTimeout);
            if (glfwGetTime() - start < kIdleTimeout) busy_frames = kFramesAfterEvent;
        }
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        draw_frame(state, fonts);
        ImGui::Render();

        int width = 0, height = 0;
        window->framebuffer_size(width, height);
        glViewport(0, 0, width, height);
        glClearColor(0.10f, 0.10f, 0.12f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        ++frame;
        if (options.frames > 0 && frame >= options.frames) {
            // Read before the swap: afterwards the back buffer's contents are undefined.
            if (!options.screenshot_path.empty()) {
                if (!save_back_buffer_png(width, height, options.screenshot_path, error)) {
                    std::fprintf(stderr, "cuda-workbook: screenshot: %s\n", error.c_str());
                    return 1;
                }
                std::printf("saved screenshot %s (%dx%d)\n", options.screenshot_path.c_str(), width, height);
            }
            break;
        }
        window->swap_buffers();
    }
    return 0;
}

}  // namespace wb::app

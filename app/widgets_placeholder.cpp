// app/widgets_placeholder.cpp — keeps wb_app_widgets non-empty before its first widget lands.
namespace wb::app { void widgets_library_anchor() {} }

// cli/command_line.cpp — cuda-workbook-cli's command line through CLI11 (command_line.hpp).
//
// Each CommandSpec becomes a subcommand whose options fill an Args. CLI11 reads
// the words; the help layout is ours (HelpFormatter) so that every --help reads
// the same: the usage line, the command's paragraph, the options CLI11 lists
// from their declarations, and the exit codes. An unknown option or command is
// said in our words, naming it and where to look.
#include "command_line.hpp"
#include "core/option_error.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <sstream>

namespace wb::cli {

namespace {

constexpr const char* kProgram = "cuda-workbook-cli";
constexpr std::size_t kOptionColumn = 22;  // where an option's text starts

class HelpFormatter : public CLI::Formatter {
public:
    HelpFormatter(const std::vector<CommandSpec>& commands, std::string about, std::string footer)
        : commands_(commands), about_(std::move(about)), footer_(std::move(footer)) {
        column_width(kOptionColumn);
    }

    std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
        const CommandSpec* spec = app->get_parent() ? find(app->get_name()) : nullptr;
        if (!spec) return main_help();
        // The paragraph ends in a newline, and the options begin with a blank line.
        return "Usage: " + name + (spec->operands.empty() ? "" : " " + spec->operands) + " [options]\n\n" + spec->about +
               make_groups(app, mode) + "\n" + spec->footer;
    }

private:
    const CommandSpec* find(const std::string& name) const {
        for (const auto& c : commands_)
            if (c.name == name) return &c;
        return nullptr;
    }

    std::string main_help() const {
        std::ostringstream out;
        out << about_ << "\n\nUsage: " << kProgram << " <command> [options]\n\nCommands:\n";
        const auto head = [](const CommandSpec& c) { return "  " + c.name + (c.operands.empty() ? "" : " " + c.operands); };
        std::size_t column = 0;  // the summaries line up after the longest name and operands
        for (const auto& c : commands_) column = std::max(column, head(c).size() + 2);
        for (const auto& c : commands_) out << head(c) << std::string(column - head(c).size(), ' ') << c.summary << "\n";
        out << "\n" << footer_;
        return out.str();
    }

    const std::vector<CommandSpec>& commands_;
    std::string about_, footer_;
};

void declare(CLI::App& sub, const OptionSpec& o, Args& args) {
    const std::string name = o.name;
    switch (o.kind) {
    case OptionSpec::Kind::Flag:
        sub.add_flag_callback(name, [&args, name] { args.flags[name] = true; }, o.help);
        break;
    case OptionSpec::Kind::Value:
        sub.add_option_function<std::string>(name, [&args, name](const std::string& v) { args.values[name] = v; }, o.help)
            ->option_text(o.value_name)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
        break;
    case OptionSpec::Kind::Repeated:
        sub.add_option_function<std::vector<std::string>>(
               name,
               [&args, name](const std::vector<std::string>& values) {
                   for (const auto& v : values) args.repeated.push_back({name, v});
               },
               o.help)
            ->option_text(o.value_name)
            ->allow_extra_args(false);  // one value per --param, so operands after it stay operands
        break;
    }
}

// The error in the workbook's words (core/option_error.hpp).
std::string in_our_words(const CLI::ParseError& e) {
    return option_error_in_our_words(e.what(), dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr);
}

std::string command_names(const std::vector<CommandSpec>& commands) {
    std::string s;
    for (const auto& c : commands) s += (s.empty() ? "" : ", ") + c.name;
    return s;
}

}  // namespace

CommandLine read_command_line(const std::vector<CommandSpec>& commands, int argc, char** argv, const std::string& about,
                              const std::string& footer) {
    CommandLine cl;
    CLI::App app{"", kProgram};
    app.formatter(std::make_shared<HelpFormatter>(commands, about, footer));
    app.set_help_flag("-h,--help", "show this text");  // the subcommands copy it
    app.allow_extras();  // unknown words are said below, in our words
    app.require_subcommand(0, 1);
    std::map<const CLI::App*, const CommandSpec*> spec_of;
    for (const auto& c : commands) {
        CLI::App* sub = app.add_subcommand(c.name, c.summary);
        sub->allow_extras();
        if (!c.operands.empty())  // a command without operands refuses a stray word below
            sub->add_option_function<std::vector<std::string>>(
                "operands", [&cl](const std::vector<std::string>& v) { cl.args.positional = v; });
        for (const auto& o : c.options) declare(*sub, o, cl.args);
        spec_of[sub] = &c;
    }

    if (argc < 2) {
        cl.help = app.help();
        cl.exit_code = kUsage;
        return cl;
    }
    if (std::string(argv[1]) == "help") {
        cl.help = app.help();
        return cl;
    }
    const auto chosen = [&]() -> const CLI::App* {
        const auto subs = app.get_subcommands();
        return subs.empty() ? nullptr : subs.front();
    };
    const auto see_help = [&](const CLI::App* sub) {
        return std::string(" (see: ") + kProgram + (sub ? " " + sub->get_name() : "") + " --help)";
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        cl.help = app.help();  // the chosen command's, when there is one
        return cl;
    } catch (const CLI::ParseError& e) {
        if (const CLI::App* sub = chosen()) cl.command = spec_of[sub];
        cl.error = in_our_words(e) + see_help(chosen());
        return cl;
    }

    const CLI::App* sub = chosen();
    const std::vector<std::string> stray = app.remaining();
    if (!stray.empty()) {
        cl.error = stray[0].rfind('-', 0) == 0 ? "unknown option '" + stray[0] + "'" + see_help(nullptr)
                                               : "unknown command '" + stray[0] + "' (commands: " + command_names(commands) + ")";
        return cl;
    }
    if (!sub) {  // only "--", say
        cl.help = app.help();
        cl.exit_code = kUsage;
        return cl;
    }
    cl.command = spec_of[sub];
    if (const std::vector<std::string> extra = sub->remaining(); !extra.empty())
        cl.error = (extra[0].rfind('-', 0) == 0 ? "unknown option '" : "unexpected word '") + extra[0] + "' for '" +
                   sub->get_name() + "'" + see_help(sub);
    return cl;
}

}  // namespace wb::cli

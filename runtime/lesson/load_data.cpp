// runtime/lesson/load_data.cpp — the Loader's checks of the data a step
// declares: its params (and whether a value fits a param, for defaults and
// cases), its buffers and their inits (images looked up in their folders), the
// __constant__ variables filled from them, and the views that show them
// (see loader_impl.hpp).
#include "lesson/loader_impl.hpp"

#include "core/data_dirs.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <system_error>

#ifndef WB_INSTALL_DATA_DIR
#define WB_INSTALL_DATA_DIR "/usr/share/cuda-workbook"
#endif

namespace wb::lesson_load {

void Loader::parse_params(const Section& s, Step& step) {
    if (!s.value) return;  // a kernel may take no params
    if (!want_object(*s.value, s.path, "an object of params by name ({\"N\": {...}})")) return;
    for (const auto& [name, pj] : s.value->items()) {
        const std::string path = key_path(s.path, name);
        if (!is_identifier(name)) {
            issue(path, "'" + name + "' is not a valid parameter name; use letters, digits and _, not starting with a digit");
            continue;
        }
        if (name == "pass") {
            issue(path, "'pass' is reserved: it is the pass number inside a launch with \"passes\"; choose another name");
            continue;
        }
        param_names_.insert(name);  // known even if its body has problems, so later checks don't pile up
        if (!want_object(pj, path, "a param object ({\"type\": \"i32\", \"default\": ...})")) continue;
        check_keys(pj, path, {"type", "default", "min", "max", "description"});
        Param p;
        p.name = name;
        p.json_path = path;
        const auto type = dtype(pj, path, true);
        if (type) p.type = *type;
        auto def = get_number(pj, "default", path, true);
        p.min = get_number(pj, "min", path, false);
        p.max = get_number(pj, "max", path, false);
        // A bound the type cannot hold (an i32 max of 2^40) would let a slider
        // or a case reach values the kernel's argument cannot carry.
        if (type) {
            for (auto [bound, key] : {std::pair{&p.min, "min"}, std::pair{&p.max, "max"}})
                if (*bound && !value_fits_type(p, **bound, key_path(path, key), key)) bound->reset();
        }
        if (const Json* d = field(pj, "description")) p.description = text(*d, path + ".description");
        if (p.min && p.max && *p.min > *p.max)
            issue(path, "min " + fmt_num(*p.min) + " is greater than max " + fmt_num(*p.max));
        if (def) {
            p.default_value = *def;
            if (auto v = param_value(p, *field(pj, "default"), path + ".default", "default")) p.default_value = *v;
        }
        step.params.push_back(std::move(p));
    }
}

// Checks a value given for param `p` (its default, or a case's override):
// whole for integer types, inside the type's range and inside [min, max].
std::optional<double> Loader::param_value(const Param& p, const Json& j, const std::string& path, const char* what) {
    if (!j.is_number()) {
        issue(path, "expected a number, got " + type_name(j));
        return std::nullopt;
    }
    const double v = j.get<double>();
    bool ok = value_fits_type(p, v, path, what);
    if (p.min && v < *p.min) {
        issue(path, std::string(what) + " " + fmt_num(v) + " for '" + p.name + "' is below its min " + fmt_num(*p.min));
        ok = false;
    }
    if (p.max && v > *p.max) {
        issue(path, std::string(what) + " " + fmt_num(v) + " for '" + p.name + "' is above its max " + fmt_num(*p.max));
        ok = false;
    }
    return ok ? std::optional<double>(v) : std::nullopt;
}

// True when `v` (a param's default, min, max or a case's value) is a value of
// the param's type: whole for integer types, and inside the type's range
// (finite for floats). Otherwise reports at `path` and returns false.
bool Loader::value_fits_type(const Param& p, double v, const std::string& path, const char* what) {
    const std::string type(dtype_name(p.type));
    if (!std::isfinite(v)) {
        issue(path, std::string(what) + " for '" + p.name + "' is not a finite number");
        return false;
    }
    bool ok = true;
    if (!dtype_is_float(p.type) && v != std::floor(v)) {
        issue(path, std::string(what) + " " + fmt_num(v) + " is not a whole number, but '" + p.name + "' is " + type);
        ok = false;
    }
    auto [lo, hi] = dtype_range(p.type);
    if (v < lo || v > hi) {
        issue(path, std::string(what) + " " + fmt_num(v) + " does not fit '" + p.name + "' (" + type + ": " +
                        fmt_num(lo) + " to " + fmt_num(hi) + ")");
        ok = false;
    }
    return ok;
}

void Loader::parse_buffers(const Section& s, Step& step) {
    if (!s.value) {
        issue(step.json_path, "missing key 'buffers' (here or at the lesson level)");
        return;
    }
    if (!s.value->is_array()) {
        issue(s.path, "expected an array of buffers, got " + type_name(*s.value));
        return;
    }
    for (std::size_t i = 0; i < s.value->size(); ++i) {
        const Json& bj = (*s.value)[i];
        const std::string path = index_path(s.path, i);
        if (!want_object(bj, path, "a buffer object")) continue;
        check_keys(bj, path, {"name", "type", "shape", "role", "init"});
        Buffer b;
        b.json_path = path;
        if (auto name = get_string(bj, "name", path, true)) {
            b.name = *name;
            if (!is_identifier(*name))
                issue(path + ".name", "'" + *name + "' is not a valid buffer name; use letters, digits and _, not starting with a digit");
            else if (step.find_buffer(*name))
                issue(path + ".name", "duplicate buffer name '" + *name + "'");
            else if (param_names_.count(*name))
                issue(path + ".name", "buffer '" + *name + "' has the same name as a param; args could not tell them apart");
        }
        if (auto t = dtype(bj, path, true)) b.type = *t;
        if (const Json* sh = field(bj, "shape")) {
            if (!sh->is_array()) {
                issue(path + ".shape", "expected an array of sizes (numbers or expressions), got " + type_name(*sh));
            } else if (sh->size() > 4) {
                issue(path + ".shape", "a buffer has at most 4 dimensions, got " + std::to_string(sh->size()));
            } else {
                for (std::size_t d = 0; d < sh->size(); ++d)
                    b.shape.push_back(expr((*sh)[d], index_path(path + ".shape", d), Scope::Params));
            }
        } else {
            issue(path, "missing key 'shape' (e.g. [\"N\"], or [] for a single value)");
        }
        if (auto role = get_string(bj, "role", path, true)) {
            if (*role == "input") b.role = BufferRole::Input;
            else if (*role == "output") b.role = BufferRole::Output;
            else if (*role == "inout") b.role = BufferRole::InOut;
            else issue(path + ".role", "unknown role '" + *role + "'; expected one of input, output, inout");
        }
        if (const Json* init = field(bj, "init")) parse_init(*init, path + ".init", b);
        step.buffers.push_back(std::move(b));
    }
}

void Loader::parse_constants(const Section& s, Step& step) {
    if (!s.value) return;
    if (!s.value->is_array()) {
        issue(s.path, "expected an array of constants ({\"name\": \"mask\", \"buffer\": \"mask\"}), got " + type_name(*s.value));
        return;
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < s.value->size(); ++i) {
        const Json& cj = (*s.value)[i];
        const std::string path = index_path(s.path, i);
        if (!want_object(cj, path, "a constant object ({\"name\": \"mask\", \"buffer\": \"mask\"})")) continue;
        check_keys(cj, path, {"name", "buffer", "values", "type"});
        ConstantSpec c;
        c.json_path = path;
        if (auto name = get_string(cj, "name", path, true)) {
            c.name = *name;
            if (!is_identifier(*name))
                issue(path + ".name", "'" + *name + "' is not a C++ name; give the __constant__ variable's name");
            else if (!seen.insert(*name).second)
                issue(path + ".name", "constant '" + *name + "' is filled twice");
        }
        const Json* values = field(cj, "values");
        if (values && field(cj, "buffer")) {
            issue(path, "give either 'buffer' (an input buffer's bytes) or 'values' (expressions), not both");
        } else if (values) {
            // A short table written out, e.g. a 3x3 mask: [1, 2, 1, 2, 4, 2, 1, 2, 1] or "1/16.0".
            if (!values->is_array() || values->empty() || values->size() > 16384) {
                issue(path + ".values", "expected an array of 1 to 16384 numbers or expressions over params, got " +
                                            (values->is_array() ? std::to_string(values->size()) + " items" : type_name(*values)));
            } else {
                for (std::size_t k = 0; k < values->size(); ++k)
                    c.values.push_back(expr((*values)[k], index_path(path + ".values", k), Scope::Params));
            }
            if (auto t = dtype(cj, path, false)) c.type = *t;
        } else {
            if (field(cj, "type")) issue(path + ".type", "type goes with 'values'; a constant filled from a buffer has the buffer's type");
            if (auto buf = get_string(cj, "buffer", path, false)) {
                c.buffer = *buf;
                const Buffer* b = step.find_buffer(*buf);
                if (!b) issue(path + ".buffer", "unknown buffer '" + *buf + "'");
                else if (b->role != BufferRole::Input)
                    issue(path + ".buffer", "buffer '" + *buf + "' is not an input; a constant is filled from an input buffer");
            } else {
                issue(path, "missing key 'buffer' (an input buffer to copy in) or 'values' (a list of expressions)");
            }
        }
        step.constants.push_back(std::move(c));
    }
}

void Loader::parse_init(const Json& j, const std::string& path, Buffer& b) {
    if (!want_object(j, path, "an init object ({\"kind\": ...})")) return;
    if (field(j, "fill") && !field(j, "kind")) {
        // {"fill": v}: an output the kernel accumulates into starts from v.
        check_keys(j, path, {"fill"});
        if (b.role != BufferRole::Output)
            issue(path + ".fill", "fill is for output buffers that kernels accumulate into; an input or inout "
                                  "buffer gets its contents from {\"kind\": ...}");
        else if (auto v = get_number(j, "fill", path, true))
            b.fill = *v;
        return;
    }
    auto kind = get_string(j, "kind", path, true);
    if (!kind) return;
    BufferInit& in = b.init;
    auto seed = [&] {
        if (auto s = get_number(j, "seed", path, false)) {
            if (*s < 0 || *s != std::floor(*s) || *s > 9007199254740992.0)
                issue(path + ".seed", "seed " + fmt_num(*s) + " must be a whole number >= 0");
            else in.seed = static_cast<uint64_t>(*s);
        }
    };
    if (*kind == "zero") {
        check_keys(j, path, {"kind"});
        in.kind = InitKind::Zero;
    } else if (*kind == "constant") {
        check_keys(j, path, {"kind", "value"});
        in.kind = InitKind::Constant;
        if (auto v = get_number(j, "value", path, true)) in.value = *v;
    } else if (*kind == "ramp") {
        check_keys(j, path, {"kind", "start", "step"});
        in.kind = InitKind::Ramp;
        if (auto v = get_number(j, "start", path, false)) in.start = *v;
        if (auto v = get_number(j, "step", path, false)) in.step = *v;
    } else if (*kind == "uniform") {
        check_keys(j, path, {"kind", "min", "max", "seed"});
        in.kind = InitKind::Uniform;
        if (auto v = get_number(j, "min", path, false)) in.min = *v;
        if (auto v = get_number(j, "max", path, false)) in.max = *v;
        if (in.min > in.max) issue(path, "min " + fmt_num(in.min) + " is greater than max " + fmt_num(in.max));
        seed();
    } else if (*kind == "normal") {
        check_keys(j, path, {"kind", "mean", "stddev", "seed"});
        in.kind = InitKind::Normal;
        if (auto v = get_number(j, "mean", path, false)) in.mean = *v;
        if (auto v = get_number(j, "stddev", path, false)) {
            if (*v < 0) issue(path + ".stddev", "stddev must be >= 0, got " + fmt_num(*v));
            else in.stddev = *v;
        }
        seed();
    } else if (*kind == "identity") {
        check_keys(j, path, {"kind"});
        in.kind = InitKind::Identity;
        if (b.shape.size() != 2)
            issue(path, "identity needs a 2-D buffer, but the shape has " + std::to_string(b.shape.size()) + " dimensions");
    } else if (*kind == "image") {
        check_keys(j, path, {"kind", "file", "layout", "channels"});
        in.kind = InitKind::Image;
        if (auto layout = get_string(j, "layout", path, false)) {
            if (*layout == "HWC") in.layout = ImageLayout::HWC;
            else if (*layout == "CHW") in.layout = ImageLayout::CHW;
            else issue(path + ".layout", "unknown layout '" + *layout + "'; expected HWC or CHW");
        }
        if (auto ch = get_string(j, "channels", path, false)) {
            if (*ch == "rgb") in.channels = ImageChannels::RGB;
            else if (*ch == "gray") in.channels = ImageChannels::Gray;
            else issue(path + ".channels", "unknown channels '" + *ch + "'; expected rgb or gray");
        }
        if (auto file = get_string(j, "file", path, true)) {
            in.image_name = *file;
            const fs::path rel(*file);
            bool relative = !file->empty() && rel.is_relative() && !rel.has_root_name();
            for (const auto& part : rel) relative = relative && part != "..";
            if (file->empty()) {
                issue(path + ".file", "empty file name");
            } else if (!relative) {
                issue(path + ".file", "'" + *file + "' must be a relative path without '..': an image is named "
                                      "relative to the lesson's folder or an assets folder");
            } else {
                // The first folder that holds the file wins; resolve_inside then
                // refuses a symlink there that leads out of that folder.
                std::string searched;
                bool found = false;
                for (const ImageFolder& f : image_folders()) {
                    std::error_code ec;
                    if (!fs::is_regular_file(f.dir / rel, ec)) {
                        searched += (searched.empty() ? "" : ", ") + f.dir.string() + " (" + f.what + ")";
                        continue;
                    }
                    found = true;
                    try {
                        in.image = resolve_inside(f.dir, *file);
                    } catch (const Error& e) {
                        issue(path + ".file", e.message());
                    } catch (const std::exception& e) {
                        issue(path + ".file", std::string("cannot resolve '") + *file + "': " + e.what());
                    }
                    break;
                }
                if (!found)
                    issue(path + ".file", "image '" + *file + "' does not exist in any of the folders images are "
                                          "looked up in: " + searched);
            }
        }
        // The shape must say where the channels go, so the resampler knows H and W.
        const auto& sh = b.shape;
        const std::string shape_str = "[" + join(sh) + "]";
        if (in.channels == ImageChannels::Gray) {
            if (sh.size() != 2) issue(path, "a gray image needs a 2-D shape [H, W]; the shape is " + shape_str);
        } else if (in.layout == ImageLayout::HWC) {
            if (sh.size() != 3 || sh[2] != "3") issue(path, "an HWC rgb image needs shape [H, W, 3]; the shape is " + shape_str);
        } else {
            if (sh.size() != 3 || sh[0] != "3") issue(path, "a CHW rgb image needs shape [3, H, W]; the shape is " + shape_str);
        }
    } else {
        issue(path + ".kind", "unknown init kind '" + *kind + "'; expected one of zero, constant, ramp, uniform, normal, identity, image");
    }
}

// Where an image named by init.file is looked for, in order: the lesson's own
// folder (so an instructor ships an image beside the lesson), its assets/
// subfolder, the assets/ beside the lessons folder (the shipped layout: lessons/
// and assets/ side by side), and the shipped assets folder by the one
// data-folder rule the app and the CLI share (core/data_dirs.hpp), else the
// compiled-in install folder. Each image is looked up on its own, so a local
// folder never hides a shipped image it lacks. LoadOptions::assets_dir
// replaces the last two. A folder reached twice is listed once.
std::vector<Loader::ImageFolder> Loader::image_folders() const {
    std::vector<ImageFolder> out;
    std::vector<fs::path> seen;
    auto add = [&](const fs::path& dir, std::string what) {
        std::error_code ec;
        fs::path key = fs::weakly_canonical(dir, ec);
        if (ec) key = dir.lexically_normal();
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) return;
        seen.push_back(key);
        out.push_back({dir.lexically_normal(), std::move(what)});
    };
    add(dir_, "the lesson's folder");
    add(dir_ / "assets", "the lesson's assets folder");
    if (!options_.assets_dir.empty()) {
        add(options_.assets_dir, "the assets folder");
        return out;
    }
    add(dir_ / ".." / "assets", "the assets folder beside the lessons folder");
    if (auto shipped = find_data_folder("assets")) add(shipped->dir, "the shipped assets");
    else add(fs::path(WB_INSTALL_DATA_DIR) / "assets", "the shipped assets");
    return out;
}

void Loader::parse_views(const Section& s, Step& step) {
    if (!s.value) return;
    if (!s.value->is_array()) {
        issue(s.path, "expected an array of views, got " + type_name(*s.value));
        return;
    }
    for (std::size_t i = 0; i < s.value->size(); ++i) {
        const Json& vj = (*s.value)[i];
        const std::string p = index_path(s.path, i);
        if (!want_object(vj, p, "a view object ({\"buffer\": ..., \"kind\": ...})")) continue;
        check_keys(vj, p, {"buffer", "kind", "title"});
        View v;
        v.json_path = p;
        if (auto b = get_string(vj, "buffer", p, true)) {
            v.buffer = *b;
            if (!step.find_buffer(*b)) issue(p + ".buffer", "unknown buffer '" + *b + "'");
        }
        if (auto k = get_string(vj, "kind", p, true)) {
            if (*k == "image") v.kind = ViewKind::Image;
            else if (*k == "matrix") v.kind = ViewKind::Matrix;
            else if (*k == "vector") v.kind = ViewKind::Vector;
            else if (*k == "scalar") v.kind = ViewKind::Scalar;
            else issue(p + ".kind", "unknown view kind '" + *k + "'; expected one of image, matrix, vector, scalar");
        }
        if (const Json* t = field(vj, "title")) v.title = text(*t, p + ".title");
        step.views.push_back(std::move(v));
    }
}

}  // namespace wb::lesson_load

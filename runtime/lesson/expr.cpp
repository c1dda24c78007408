// runtime/lesson/expr.cpp — lesson expressions on top of muparser (see expr.hpp).
//
// muparser does the parsing; this file adds dotted names (block.x), the few
// functions lessons need, and turns muparser's errors into wb::Error messages
// that name the unknown variable instead of "unexpected token".
#include "lesson/expr.hpp"

#include "core/error.hpp"

#include <cmath>
#include <deque>
#include <muParser.h>

namespace wb {

namespace {

constexpr const char* kNameChars = "0123456789_.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

double fn_ceil_div(double a, double b) {
    if (b == 0) throw mu::ParserError("ceil_div: division by zero");
    return std::ceil(a / b);
}
double fn_floor(double x) { return std::floor(x); }
double fn_ceil(double x) { return std::ceil(x); }
double fn_round(double x) { return std::round(x); }
double fn_pow2(double x) { return std::pow(2.0, x); }
double op_mod(double a, double b) {
    if (b == 0) throw mu::ParserError("modulo by zero");
    return std::fmod(a, b);
}

void setup(mu::Parser& p) {
    p.DefineNameChars(kNameChars);
    p.DefineFun("ceil_div", fn_ceil_div);
    p.DefineFun("floor", fn_floor);
    p.DefineFun("ceil", fn_ceil);
    p.DefineFun("round", fn_round);
    p.DefineFun("pow2", fn_pow2);
    p.DefineOprt("%", op_mod, mu::prMUL_DIV);
}

// Storage for variables muparser meets while only listing names.
double* collect_factory(const char*, void* user) {
    auto* store = static_cast<std::deque<double>*>(user);
    store->push_back(0.0);
    return &store->back();
}

Error to_error(const mu::ParserError& e, const std::string& expr) {
    std::string msg;
    switch (e.GetCode()) {
    case mu::ecUNASSIGNABLE_TOKEN:
        msg = "unknown parameter '" + e.GetToken() + "'";
        break;
    case mu::ecUNEXPECTED_EOF:
        msg = "expression '" + expr + "' ends too early";
        break;
    default:
        msg = "in '" + expr + "': " + e.GetMsg();
    }
    return Error(ErrorKind::Expression, msg);
}

}  // namespace

std::vector<std::string> expr_names(const std::string& expr) {
    mu::Parser p;
    std::deque<double> store;
    try {
        setup(p);
        p.SetVarFactory(collect_factory, &store);
        p.SetExpr(expr);
        std::vector<std::string> names;
        for (const auto& [name, ptr] : p.GetUsedVar()) names.push_back(name);
        return names;
    } catch (const mu::ParserError& e) {
        throw to_error(e, expr);
    }
}

double eval_expr(const std::string& expr, const ExprVars& vars) {
    if (expr.find_first_not_of(" \t") == std::string::npos)
        throw Error(ErrorKind::Expression, "empty expression");
    mu::Parser p;
    std::map<std::string, double> values(vars.begin(), vars.end());  // muparser keeps pointers
    try {
        setup(p);
        for (auto& [name, value] : values) p.DefineVar(name, &value);
        p.SetExpr(expr);
        double v = p.Eval();
        if (!std::isfinite(v))
            throw Error(ErrorKind::Expression, "'" + expr + "' is not a finite number (division by zero?)");
        return v;
    } catch (const mu::ParserError& e) {
        throw to_error(e, expr);
    }
}

long long eval_int_expr(const std::string& expr, const ExprVars& vars, long long min, long long max) {
    double v = eval_expr(expr, vars);
    if (v != std::floor(v))
        throw Error(ErrorKind::Expression, "'" + expr + "' = " + std::to_string(v) + ", expected a whole number");
    if (v < double(min))
        throw Error(ErrorKind::Expression,
                    "'" + expr + "' = " + std::to_string((long long)v) + ", below the minimum " + std::to_string(min));
    if (v > double(max))
        throw Error(ErrorKind::Expression,
                    "'" + expr + "' = " + std::to_string((long long)v) + ", above the maximum " + std::to_string(max));
    return (long long)v;
}

}  // namespace wb

// runtime/lesson/expr.hpp — size and metric expressions, evaluated with muparser.
//
// Lessons write shapes, launch sizes, metrics and argument values as
// expressions over named values: "N", "ceil_div(N, block.x)", "2*M*N*K".
// Names may contain dots (block.x, grid.y, A.bytes). Functions beyond
// muparser's built-ins (min, max, sqrt, ...): ceil_div(a, b), floor(x),
// ceil(x), round(x), pow2(x) (= 2^x).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace wb {

using ExprVars = std::map<std::string, double>;

// The names an expression uses, whether or not they are defined.
// Throws wb::Error (Expression) when it does not parse.
std::vector<std::string> expr_names(const std::string& expr);

// Evaluates with the given variables. Throws wb::Error (Expression) naming the
// unknown variable, the syntax error and its position, or a non-finite result.
double eval_expr(const std::string& expr, const ExprVars& vars);

// As eval_expr, and requires a whole number in [min, max]; says which bound failed.
long long eval_int_expr(const std::string& expr, const ExprVars& vars, long long min = 0,
                        long long max = (1ll << 53));

}  // namespace wb

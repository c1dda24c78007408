// tests/unit/expr_test.cpp — size and metric expressions (lesson/expr.hpp).
//
// Lessons size buffers and launches with these, so the tests pin down what an
// instructor relies on: dotted names, the extra functions, integer-only
// results where sizes are needed, and errors that name the unknown parameter.
#include "lesson/expr.hpp"

#include "core/error.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace wb;

namespace {

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// The message of the wb::Error that `f` throws, or "" when it does not throw.
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Expression);
        return e.message();
    }
    return "";
}

}  // namespace

TEST(Expr, NamesListsEveryVariableIncludingDottedOnes) {
    EXPECT_EQ(sorted(expr_names("ceil_div(N, block.x) * grid.y + M")),
              (std::vector<std::string>{"M", "N", "block.x", "grid.y"}));
    EXPECT_TRUE(expr_names("3*4 + ceil_div(10, 3)").empty());
    EXPECT_EQ(expr_names("N*N"), (std::vector<std::string>{"N"}));
}

TEST(Expr, NamesOfAnUnparsableExpressionThrowAnExpressionError) {
    EXPECT_NE(error_of([] { expr_names("N+"); }), "");
    EXPECT_NE(error_of([] { expr_names("(N"); }), "");
    EXPECT_NE(error_of([] { expr_names("N N"); }), "");
}

TEST(Expr, EvaluatesArithmeticWithParams) {
    ExprVars v{{"N", 1000}, {"M", 3}};
    EXPECT_EQ(eval_expr("3*N*4", v), 12000);
    EXPECT_EQ(eval_expr("N/M", v), 1000.0 / 3);
    EXPECT_EQ(eval_expr("2^10", v), 1024);
    EXPECT_EQ(eval_expr("N % 7", v), 1000 % 7);
    EXPECT_EQ(eval_expr("min(N, 256)", v), 256);
    EXPECT_EQ(eval_expr("max(M, 4)", v), 4);
    EXPECT_EQ(eval_expr("-M + 1", v), -2);
    EXPECT_EQ(eval_expr("  42 ", {}), 42);
}

TEST(Expr, ExtraFunctionsRoundTheWayLaunchMathNeeds) {
    ExprVars v{{"N", 1000}, {"block.x", 256}};
    EXPECT_EQ(eval_expr("ceil_div(N, block.x)", v), 4);
    EXPECT_EQ(eval_expr("ceil_div(1024, block.x)", v), 4);
    EXPECT_EQ(eval_expr("ceil_div(1025, block.x)", v), 5);
    EXPECT_EQ(eval_expr("floor(7/2)", v), 3);
    EXPECT_EQ(eval_expr("ceil(7/2)", v), 4);
    EXPECT_EQ(eval_expr("round(2.5)", v), 3);
    EXPECT_EQ(eval_expr("round(-2.5)", v), -3);  // away from zero, like std::round
    EXPECT_EQ(eval_expr("pow2(5)", v), 32);
    EXPECT_EQ(eval_expr("sqrt(16)", v), 4);
}

TEST(Expr, ModuloBindsLikeMultiplication) {
    EXPECT_EQ(eval_expr("2 + 7 % 4", {}), 5);
    EXPECT_EQ(eval_expr("2 * 7 % 4", {}), 2);  // left to right: (2*7) % 4
}

TEST(Expr, UnknownParameterIsNamedInTheMessage) {
    EXPECT_EQ(error_of([] { eval_expr("M*K", {{"M", 2}}); }), "unknown parameter 'K'");
    EXPECT_EQ(error_of([] { eval_expr("ceil_div(N, block.x)", {{"N", 2}}); }), "unknown parameter 'block.x'");
}

TEST(Expr, DivisionByZeroIsAnErrorNotInfinity) {
    EXPECT_NE(error_of([] { eval_expr("ceil_div(N, 0)", {{"N", 5}}); }), "");
    EXPECT_NE(error_of([] { eval_expr("N % 0", {{"N", 5}}); }), "");
    EXPECT_NE(error_of([] { eval_expr("N / 0", {{"N", 5}}); }).find("not a finite number"), std::string::npos);
}

TEST(Expr, EmptyAndMalformedExpressionsAreErrors) {
    EXPECT_EQ(error_of([] { eval_expr("", {}); }), "empty expression");
    EXPECT_EQ(error_of([] { eval_expr("   ", {}); }), "empty expression");
    EXPECT_NE(error_of([] { eval_expr("N+", {{"N", 1}}); }).find("ends too early"), std::string::npos);
    EXPECT_NE(error_of([] { eval_expr("3 $ 4", {}); }), "");
}

TEST(Expr, IntegerEvaluationRequiresAWholeNumberInRange) {
    EXPECT_EQ(eval_int_expr("N*2", {{"N", 21}}), 42);
    EXPECT_EQ(eval_int_expr("0", {}), 0);
    EXPECT_EQ(eval_int_expr("5", {}, 1, 5), 5);
    EXPECT_NE(error_of([] { eval_int_expr("N/2", {{"N", 3}}); }).find("expected a whole number"), std::string::npos);
    EXPECT_NE(error_of([] { eval_int_expr("N-10", {{"N", 3}}); }).find("below the minimum 0"), std::string::npos);
    EXPECT_NE(error_of([] { eval_int_expr("N", {{"N", 2048}}, 1, 1024); }).find("above the maximum 1024"),
              std::string::npos);
    EXPECT_EQ(eval_int_expr("2^40", {}), 1ll << 40);  // sizes past 32 bits are exact
}

TEST(Expr, VariablesAreReadNotChanged) {
    ExprVars v{{"N", 4}};
    EXPECT_EQ(eval_expr("N*N", v), 16);
    EXPECT_EQ(v.at("N"), 4);
    EXPECT_EQ(v.size(), 1u);
}

/* test_scalar — the shared scalar evaluator (ir/scalar.c) against values computed by hand (and
 * checked with CPython), the checked-arithmetic helpers of base, UTF-8 validation and the JSON
 * writer's handling of bytes that are not UTF-8. */
#include "test.h"

#include "ir/ir.h"

static ScalarVal I(int64_t v) { return ir_scalar_int(v); }
static ScalarVal F(double v) { return ir_scalar_float(v); }
static ScalarVal B(bool v) { return ir_scalar_bool(v); }

/* a op b must be the int `want` */
static void bin_int(BinOp op, ScalarVal a, ScalarVal b, int64_t want) {
    ScalarVal r = { 0 };
    ScalarErr e = ir_scalar_binary(op, a, b, &r);
    CHECK_MSG(e == SCALAR_OK && r.kind == SV_INT && r.i == want, "op %d: err %d kind %d value %lld, want int %lld", (int)op,
              (int)e, (int)r.kind, (long long)r.i, (long long)want);
}

static void bin_float(BinOp op, ScalarVal a, ScalarVal b, double want) {
    ScalarVal r = { 0 };
    ScalarErr e = ir_scalar_binary(op, a, b, &r);
    bool same = r.f == want && signbit(r.f) == signbit(want);
    CHECK_MSG(e == SCALAR_OK && r.kind == SV_FLOAT && same, "op %d: err %d kind %d value %.17g, want float %.17g", (int)op,
              (int)e, (int)r.kind, r.f, want);
}

static void bin_bool(BinOp op, ScalarVal a, ScalarVal b, bool want) {
    ScalarVal r = { 0 };
    ScalarErr e = ir_scalar_binary(op, a, b, &r);
    CHECK_MSG(e == SCALAR_OK && r.kind == SV_BOOL && r.i == want, "op %d: err %d kind %d value %lld, want bool %d", (int)op,
              (int)e, (int)r.kind, (long long)r.i, (int)want);
}

static void bin_err(BinOp op, ScalarVal a, ScalarVal b, ScalarErr want) {
    ScalarVal r;
    ScalarErr e = ir_scalar_binary(op, a, b, &r);
    CHECK_MSG(e == want, "op %d: err %d, want %d", (int)op, (int)e, (int)want);
}

TEST(test_int_arithmetic) {
    bin_int(BIN_ADD, I(INT64_MAX - 1), I(1), INT64_MAX);
    bin_err(BIN_ADD, I(INT64_MAX), I(1), SCALAR_OVERFLOW);
    bin_err(BIN_SUB, I(INT64_MIN), I(1), SCALAR_OVERFLOW);
    bin_int(BIN_SUB, I(-1), I(INT64_MAX), INT64_MIN);
    bin_err(BIN_SUB, I(-2), I(INT64_MAX), SCALAR_OVERFLOW);
    bin_int(BIN_MUL, I(3037000499), I(3037000499), 9223372030926249001);
    bin_err(BIN_MUL, I(3037000500), I(3037000500), SCALAR_OVERFLOW);
    bin_err(BIN_MUL, I(INT64_MIN), I(-1), SCALAR_OVERFLOW);
    /* Python: 7 // -2 == -4, -7 // 2 == -4, 7 % -2 == -1, -7 % 2 == 1 */
    bin_int(BIN_FLOORDIV, I(7), I(-2), -4);
    bin_int(BIN_FLOORDIV, I(-7), I(2), -4);
    bin_int(BIN_FLOORDIV, I(-8), I(2), -4);
    bin_int(BIN_FLOORMOD, I(7), I(-2), -1);
    bin_int(BIN_FLOORMOD, I(-7), I(2), 1);
    bin_int(BIN_FLOORMOD, I(INT64_MIN), I(-1), 0);
    bin_err(BIN_FLOORDIV, I(INT64_MIN), I(-1), SCALAR_OVERFLOW);
    bin_err(BIN_FLOORDIV, I(1), I(0), SCALAR_DIVISION_BY_ZERO);
    bin_err(BIN_FLOORMOD, I(1), I(0), SCALAR_DIVISION_BY_ZERO);
    bin_float(BIN_DIV, I(7), I(2), 3.5);
    bin_float(BIN_DIV, I(-1), I(4), -0.25);
    bin_err(BIN_DIV, I(1), I(0), SCALAR_DIVISION_BY_ZERO);
    bin_int(BIN_MIN, I(-3), I(2), -3);
    bin_int(BIN_MAX, I(-3), I(2), 2);
}

TEST(test_power) {
    bin_int(BIN_POW, I(2), I(62), INT64_C(4611686018427387904));
    bin_err(BIN_POW, I(2), I(63), SCALAR_OVERFLOW);
    bin_err(BIN_POW, I(2), I(64), SCALAR_OVERFLOW);
    bin_int(BIN_POW, I(-2), I(63), INT64_MIN);
    bin_int(BIN_POW, I(3), I(39), INT64_C(4052555153018976267));
    bin_err(BIN_POW, I(3), I(40), SCALAR_OVERFLOW);
    /* by squaring: these return at once however large the exponent */
    bin_int(BIN_POW, I(1), I(INT64_MAX), 1);
    bin_int(BIN_POW, I(-1), I(INT64_MAX), -1);
    bin_int(BIN_POW, I(-1), I(INT64_MAX - 1), 1);
    bin_int(BIN_POW, I(0), I(INT64_MAX), 0);
    bin_int(BIN_POW, I(0), I(0), 1);
    bin_err(BIN_POW, I(2), I(INT64_MAX), SCALAR_OVERFLOW);
    bin_float(BIN_POW, I(2), I(-2), 0.25);
    bin_err(BIN_POW, I(0), I(-1), SCALAR_DIVISION_BY_ZERO);
    bin_float(BIN_POW, F(2.0), F(0.5), sqrt(2.0));
    bin_err(BIN_POW, F(-8.0), F(1.0 / 3.0), SCALAR_COMPLEX);
    bin_err(BIN_POW, F(10.0), F(400.0), SCALAR_OVERFLOW);
    bin_err(BIN_POW, F(0.0), F(-1.0), SCALAR_DIVISION_BY_ZERO);
}

TEST(test_shifts_and_bits) {
    bin_int(BIN_SHL, I(1), I(62), INT64_C(4611686018427387904));
    bin_err(BIN_SHL, I(1), I(63), SCALAR_OVERFLOW);
    bin_err(BIN_SHL, I(3), I(62), SCALAR_OVERFLOW);
    bin_int(BIN_SHL, I(-1), I(63), INT64_MIN);
    bin_int(BIN_SHL, I(0), I(1000), 0);
    bin_err(BIN_SHL, I(1), I(-1), SCALAR_NEGATIVE_SHIFT);
    bin_err(BIN_SHR, I(1), I(-1), SCALAR_NEGATIVE_SHIFT);
    bin_int(BIN_SHR, I(-5), I(1), -3);           /* Python floors: -5 >> 1 == -3 */
    bin_int(BIN_SHR, I(-5), I(100), -1);
    bin_int(BIN_SHR, I(5), I(100), 0);
    bin_int(BIN_BITAND, I(12), I(10), 8);
    bin_int(BIN_BITOR, I(12), I(10), 14);
    bin_int(BIN_BITXOR, I(12), I(10), 6);
    bin_bool(BIN_BITAND, B(true), B(false), false);
    bin_err(BIN_BITAND, F(1.0), I(1), SCALAR_FLOAT_OPERAND);
    bin_err(BIN_SHL, I(1), F(1.0), SCALAR_FLOAT_OPERAND);
}

TEST(test_floats_and_mixed) {
    /* Python: 7.5 // -2 == -4.0, 7.5 % -2 == -0.5, -0.0 % 5 == 0.0, 6.0 % -3 == -0.0 */
    bin_float(BIN_FLOORDIV, F(7.5), I(-2), -4.0);
    bin_float(BIN_FLOORMOD, F(7.5), I(-2), -0.5);
    bin_float(BIN_FLOORMOD, F(-0.0), I(5), 0.0);
    bin_float(BIN_FLOORMOD, F(6.0), I(-3), -0.0);
    bin_err(BIN_FLOORDIV, F(1.0), F(0.0), SCALAR_DIVISION_BY_ZERO);
    bin_err(BIN_DIV, F(1.0), I(0), SCALAR_DIVISION_BY_ZERO);
    bin_float(BIN_ADD, I(1), F(0.5), 1.5);
    bin_int(BIN_ADD, B(true), B(true), 2);       /* bool acts as the int 1 */
    /* exact comparison of an int with a float: 2^53 + 1 > 2^53 as a float */
    bin_bool(BIN_GT, I((INT64_C(1) << 53) + 1), F(9007199254740992.0), true);
    bin_bool(BIN_EQ, I(INT64_MAX), F(9223372036854775808.0), false);
    bin_bool(BIN_LT, I(INT64_MAX), F(9223372036854775808.0), true);
    bin_bool(BIN_EQ, I(3), F(3.0), true);
    bin_bool(BIN_NE, F(NAN), F(NAN), true);
    bin_bool(BIN_EQ, F(NAN), I(0), false);
    bin_bool(BIN_AND, I(2), F(0.0), false);
    bin_bool(BIN_OR, I(0), F(0.5), true);
    bin_bool(BIN_XOR, I(1), I(2), false);
    /* min/max keep the operand as given: min(1, 1.0) is the int 1 */
    bin_int(BIN_MIN, I(1), F(1.0), 1);
    bin_float(BIN_MAX, I(1), F(1.5), 1.5);
}

TEST(test_unary_and_cast) {
    ScalarVal r;
    CHECK_EQ_INT(ir_scalar_unary(UN_NEG, DT_NONE, I(INT64_MIN), &r), SCALAR_OVERFLOW);
    CHECK_EQ_INT(ir_scalar_unary(UN_ABS, DT_NONE, I(INT64_MIN), &r), SCALAR_OVERFLOW);
    CHECK(ir_scalar_unary(UN_NEG, DT_NONE, I(INT64_MAX), &r) == SCALAR_OK && r.i == -INT64_MAX);
    CHECK(ir_scalar_unary(UN_BITNOT, DT_NONE, I(5), &r) == SCALAR_OK && r.i == -6);
    CHECK_EQ_INT(ir_scalar_unary(UN_BITNOT, DT_NONE, F(5.0), &r), SCALAR_FLOAT_OPERAND);
    CHECK(ir_scalar_unary(UN_NOT, DT_NONE, F(0.0), &r) == SCALAR_OK && r.kind == SV_BOOL && r.i == 1);
    /* casts: ints wrap to the width, floats truncate, then round to the dtype */
    CHECK(ir_scalar_unary(UN_CAST, DT_INT8, I(300), &r) == SCALAR_OK && r.i == 44);
    CHECK(ir_scalar_unary(UN_CAST, DT_INT8, I(-129), &r) == SCALAR_OK && r.i == 127);
    CHECK(ir_scalar_unary(UN_CAST, DT_UINT8, I(-1), &r) == SCALAR_OK && r.i == 255);
    CHECK(ir_scalar_unary(UN_CAST, DT_INT32, F(-2.9), &r) == SCALAR_OK && r.kind == SV_INT && r.i == -2);
    CHECK(ir_scalar_unary(UN_CAST, DT_INT64, I((INT64_C(1) << 60) + 1), &r) == SCALAR_OK && r.i == (INT64_C(1) << 60) + 1);
    CHECK_EQ_INT(ir_scalar_unary(UN_CAST, DT_INT64, F(NAN), &r), SCALAR_NAN_TO_INT);
    CHECK_EQ_INT(ir_scalar_unary(UN_CAST, DT_INT64, F(1e19), &r), SCALAR_OVERFLOW);
    CHECK(ir_scalar_unary(UN_CAST, DT_FP16, F(1.0 + 1.0 / 4096), &r) == SCALAR_OK && r.f == 1.0);   /* below half an ulp */
    CHECK(ir_scalar_unary(UN_CAST, DT_BF16, I(257), &r) == SCALAR_OK && r.kind == SV_FLOAT && r.f == 256.0);
    CHECK(ir_scalar_unary(UN_CAST, DT_BOOL, I(-3), &r) == SCALAR_OK && r.kind == SV_BOOL && r.i == 1);
    /* a float-typed expression keeps a float value */
    CHECK(ir_scalar_binary_typed(BIN_ADD, DT_FP32, I(1), I(2), &r) == SCALAR_OK && r.kind == SV_FLOAT && r.f == 3.0);
}

TEST(test_messages) {
    StrBuf sb = { 0 };
    ir_scalar_binary_error(SCALAR_OVERFLOW, BIN_POW, I(2), I(64), &sb);
    CHECK_CONTAINS(sb_cstr(&sb), "integer overflow: 2 ** 64 does not fit in a 64-bit integer");
    sb.len = 0;
    ir_scalar_binary_error(SCALAR_DIVISION_BY_ZERO, BIN_FLOORMOD, I(7), I(0), &sb);
    CHECK_CONTAINS(sb_cstr(&sb), "division by zero in 7 % 0");
    sb.len = 0;
    ir_scalar_unary_error(SCALAR_OVERFLOW, UN_NEG, DT_NONE, I(INT64_MIN), &sb);
    CHECK_CONTAINS(sb_cstr(&sb), "-(-9223372036854775808)");
    sb_free(&sb);
}

TEST(test_checked_helpers) {
    int64_t r;
    CHECK(checked_add(INT64_MAX - 2, 2, &r) && r == INT64_MAX);
    CHECK(!checked_add(INT64_MAX, 1, &r));
    CHECK(!checked_mul(INT64_C(4294967296), INT64_C(4294967296), &r));
    int64_t dims[3] = { 4611686018427387905, 16, 1 };
    CHECK(!checked_product(dims, 2, &r));
    int64_t ok_dims[3] = { 128, 512, 3 };
    CHECK(checked_product(ok_dims, 3, &r) && r == 196608);
    CHECK(checked_product(NULL, 0, &r) && r == 1);
    CHECK(checked_round_up(17, 16, &r) && r == 32);
    CHECK(!checked_round_up(INT64_MAX - 3, 16, &r));
    CHECK(ir_shape_bytes(DT_FP16, ok_dims, 2, &r) && r == 131072);
    CHECK(ir_shape_bytes(DT_INT4, ok_dims, 1, &r) && r == 64);
    CHECK(!ir_shape_bytes(DT_FP16, dims, 2, &r));
    int64_t two62[1] = { INT64_C(1) << 62 };
    CHECK(!ir_shape_bytes(DT_FP16, two62, 1, &r));
}

TEST(test_utf8_and_json) {
    CHECK_EQ_INT(utf8_sequence_length((const unsigned char *)"a", 1), 1);
    CHECK_EQ_INT(utf8_sequence_length((const unsigned char *)"\xc3\xa9", 2), 2);          /* é */
    CHECK_EQ_INT(utf8_sequence_length((const unsigned char *)"\xe2\x82\xac", 3), 3);      /* € */
    CHECK_EQ_INT(utf8_sequence_length((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);  /* U+1F600 */
    CHECK_EQ_INT(utf8_sequence_length((const unsigned char *)"\xe9", 1), 0);              /* Latin-1 é */
    CHECK_EQ_INT(utf8_sequence_length((const unsigned char *)"\xc3", 1), 0);              /* truncated */
    CHECK_EQ_INT(utf8_sequence_length((const unsigned char *)"\xc0\xaf", 2), 0);          /* overlong '/' */
    CHECK_EQ_INT(utf8_sequence_length((const unsigned char *)"\xed\xa0\x80", 3), 0);      /* surrogate */
    CHECK_EQ_INT(utf8_sequence_length((const unsigned char *)"\xf4\x90\x80\x80", 4), 0);  /* > U+10FFFF */
    CHECK_EQ_INT(utf8_sequence_length((const unsigned char *)"\x80", 1), 0);
    StrBuf sb = { 0 };
    JsonW w;
    json_init(&w, &sb);
    json_arr_begin(&w);
    json_str(&w, "caf\xe9 \xc3\xa9\xff\x01\"");
    json_arr_end(&w);
    CHECK_EQ_STR(sb_cstr(&sb), "[\"caf\\ufffd \xc3\xa9\\ufffd\\u0001\\\"\"]");
    sb_free(&sb);
}

int main(void) {
    RUN(test_int_arithmetic);
    RUN(test_power);
    RUN(test_shifts_and_bits);
    RUN(test_floats_and_mixed);
    RUN(test_unary_and_cast);
    RUN(test_messages);
    RUN(test_checked_helpers);
    RUN(test_utf8_and_json);
    return test_summary();
}

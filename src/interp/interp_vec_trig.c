/* interp_vec_trig — the interpreter's sin and cos (spec/ops.md §4.3): FP32 only, the exact step
 * sequence that LowerCompositeOps expands them into, so the golden values equal the compiled
 * program's bit for bit.
 *
 * Requires: interp_vec.h (the element type is FP32: type deduction rejects anything else).
 * Produces: interp_vec_trig.
 * Does: per element, every step rounded to FP32 as its tile op would round it (one float operation
 * each; the build has -ffp-contract=off, so no step is fused):
 *   p = x * (1/pi); k = cast(cast(p -> INT32, round) -> FP32)            (cos: cast(p + 0.5, rint))
 *   t = x - k*3.140625 - k*0.0009670257568359375 [cos: + 1.5707963705062866]
 *       - k*6.2771141529083251953125e-7 - k*1.21644916362129151821e-10 - k*(-1.0290623200529979163e-13)
 *       [cos: + (-4.371139000189375e-8)]
 *   sign = cast(cast(k*0.5 -> INT32, floor) -> FP32)*4 - k*2 + 1
 *   u = t*t; P = (((2.604926501e-6*u - 1.980894471e-4)*u + 8.333049340e-3)*u - 1.666665792e-1)*u + 1
 *   result = sign * (t * P)
 * Float -> INT32 casts saturate (decision 6); INT32 -> FP32 casts round to nearest even (rint).
 * The constants are the FP32 values of the decimal literals (nearest even), as a tile op's scalar. */
#include "interp/interp_vec.h"

#include <string.h>

/* float -> INT32 (mode) -> FP32 (nearest even), through the shared dtype conversion */
static float int_round_trip(float v, int mode) {
    double i = dtype_convert(DT_INT32, DT_FP32, v, mode);
    return (float)dtype_convert(DT_FP32, DT_INT32, i, DT_ROUND_RINT);
}

static float trig(float x, bool cos) {
    const float inv_pi = (float)0.31830988732818603515625;
    float p = x * inv_pi;
    float k = cos ? int_round_trip(p + 0.5f, DT_ROUND_RINT) : int_round_trip(p, DT_ROUND_ROUND);
    float t = x - k * (float)3.140625;
    t = t - k * (float)0.0009670257568359375;
    if (cos) t = t + (float)1.57079637050628662109375;
    t = t - k * (float)6.2771141529083251953125e-7;
    t = t - k * (float)1.21644916362129151821e-10;
    t = t - k * (float)-1.0290623200529979163e-13;
    if (cos) t = t + (float)-4.371139000189375e-8;
    float f = int_round_trip(k * 0.5f, DT_ROUND_FLOOR);
    float sign = f * 4.0f - k * 2.0f;
    sign = sign + 1.0f;
    float u = t * t;
    float poly = u * (float)2.604926501e-6;
    poly = poly + (float)-1.980894471e-4;
    poly = poly * u;
    poly = poly + (float)8.333049340e-3;
    poly = poly * u;
    poly = poly + (float)-1.666665792e-1;
    poly = poly * u;
    poly = poly + 1.0f;
    return sign * (t * poly);
}

bool interp_vec_trig(VecArgs *a, InterpValue *out) {
    InterpArray *x, *res;
    if (!vec_arg_array(a, 0, "the operand", &x)) return false;
    if (x->dtype != DT_FP32)
        return interp_fail(a->c, a->call->span, "%s: computed for FP32 elements only, got %s", vec_name(a), dtype_name(x->dtype));
    if (!vec_new_result(a, DT_FP32, x->rank, x->shape, &res)) return false;
    memcpy(res->valid, x->valid, sizeof x->valid);
    bool cos = a->call->call.op == OP_TILE_COS || a->call->call.op == OP_TENSOR_COS;
    int64_t R = vec_rows(x), C = vec_cols(x), vc = vec_valid_cols(x);
    for (int64_t r = 0; r < R; r++)
        if (vec_row_valid(x, r))
            for (int64_t c = 0; c < vc; c++) interp_set(res, r * C + c, trig((float)interp_get(x, r * C + c), cos));
    *out = interp_arr_value(res);
    return true;
}

"""Fits the polynomials of tessera's float64 sin/cos kernel (src/backend/cpu/simd_math.cpp).

    sin y = y + S1 y^3 + y^5 Ps(z),          z = y^2, S1 = RN(-1/6), Ps = S2 + ... + S7 z^5
    cos y = 1 - z/2 + z^2 (C1 + z Pc'(z)),   C1 = RN(1/24), Pc' = C2 + ... + C6 z^4

on |y| <= pi/4 + 2^-20, minimising the largest error in ULPs of the result (weighted minimax
by Lawson's iteration on 120 points, in 160-bit mpmath; S1 and C1 are the doubles nearest
-1/6 and 1/24, fixed, and the fit absorbs what it can of their rounding), then checks the
coefficients rounded to double on a 400-point grid. Needs mpmath (`pip install mpmath`). Prints the
coefficients as C99 hex floats and the worst error in ULPs. Run:

    python tools/fit_sincos.py
"""

import mpmath as mp

mp.mp.prec = 160
Y = mp.pi / 4 + mp.mpf(2) ** -20
C1 = mp.mpf(float(mp.mpf(1) / 24))
S1 = mp.mpf(float(-mp.mpf(1) / 6))


def ulp(v):
    return mp.mpf(2) ** (mp.floor(mp.log(abs(v), 2)) - 52)


def lawson(zs, targets, weights, n, iterations=60):
    """Coefficients c_0..c_{n-1} minimising max |w (t - sum c_j z^j)| over the points."""
    lw = [mp.mpf(1) / len(zs)] * len(zs)
    for _ in range(iterations):
        a = mp.matrix(n, n)
        b = mp.matrix(n, 1)
        for z, t, w, l in zip(zs, targets, weights, lw):
            row = [z ** j for j in range(n)]
            for r in range(n):
                b[r] += l * w * w * row[r] * t
                for c in range(n):
                    a[r, c] += l * w * w * row[r] * row[c]
        coef = mp.lu_solve(a, b)
        err = [abs(w * (t - sum(coef[j] * z ** j for j in range(n))))
               for z, t, w in zip(zs, targets, weights)]
        total = sum(l * e for l, e in zip(lw, err))
        lw = [l * e / total for l, e in zip(lw, err)]
    return [float(coef[j]) for j in range(n)]


def fit(which, n):
    ys = [Y * mp.mpf(k + 1) / 120 for k in range(120)]
    zs, targets, weights = [], [], []
    for y in ys:
        z = y * y
        if which == "sin":
            f = mp.sin(y)
            targets.append(((f - y) / y ** 3 - S1) / z)
            weights.append(y ** 5 / ulp(f))
        else:
            f = mp.cos(y)
            targets.append(((f - 1 + z / 2) / (z * z) - C1) / z)
            weights.append(z ** 3 / ulp(f))
        zs.append(z)
    coef = lawson(zs, targets, weights, n)
    worst = 0
    for i in range(1, 400):
        y = Y * i / 399
        z = y * y
        p = sum(mp.mpf(c) * z ** j for j, c in enumerate(coef))
        if which == "sin":
            f, approx = mp.sin(y), y + S1 * y ** 3 + y ** 5 * p
        else:
            f, approx = mp.cos(y), 1 - z / 2 + z * z * C1 + z ** 3 * p
        worst = max(worst, abs(approx - f) / ulp(f))
    return coef, worst


if __name__ == "__main__":
    for which, n, names in (("sin", 6, "S2..S7"), ("cos", 5, "C2..C6")):
        coef, worst = fit(which, n)
        print(f"{which} {names}: worst {float(worst):.2g} ULP")
        print("    " + ", ".join(c.hex() for c in coef))
    print(f"sin S1 = RN(-1/6) = {float(S1).hex()}, cos C1 = RN(1/24) = {float(C1).hex()}")

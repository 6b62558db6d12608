//! Exact numeric comparisons between JSON numbers and schema bounds.

use std::cmp::Ordering;

use serde_json::Number;

/// 2^64 as an `f64`.
const TWO_64: f64 = 18_446_744_073_709_551_616.0;

/// Whether the number has no fractional part (JSON Schema's `integer`).
pub(crate) fn is_integer(n: &Number) -> bool {
    if n.is_i64() || n.is_u64() {
        return true;
    }
    n.as_f64()
        .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// Exact ordering of an integer against a float. `None` for NaN.
fn cmp_int_f64(a: i128, b: f64) -> Option<Ordering> {
    if b.is_nan() {
        return None;
    }
    if b >= TWO_64 * 4.0 {
        return Some(Ordering::Less);
    }
    if b <= -(TWO_64 * 4.0) {
        return Some(Ordering::Greater);
    }
    let t = b.trunc();
    #[allow(clippy::cast_possible_truncation)]
    let ti = t as i128;
    Some(match a.cmp(&ti) {
        Ordering::Equal => {
            if b > t {
                Ordering::Less
            } else if b < t {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        }
        other => other,
    })
}

/// Exact ordering of a JSON number against a schema bound. `None` for a NaN bound.
pub(crate) fn cmp_bound(n: &Number, bound: super::Num) -> Option<Ordering> {
    let int = match bound {
        super::Num::Float(f) => return cmp(n, f),
        super::Num::Int(i) => i128::from(i),
        super::Num::UInt(u) => i128::from(u),
    };
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i).cmp(&int));
    }
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u).cmp(&int));
    }
    // A float against an integer bound: the reverse of an exact int-float ordering.
    cmp_int_f64(int, n.as_f64()?).map(Ordering::reverse)
}

/// Exact ordering of a JSON number against a bound. `None` for a NaN bound.
pub(crate) fn cmp(n: &Number, bound: f64) -> Option<Ordering> {
    if let Some(i) = n.as_i64() {
        return cmp_int_f64(i128::from(i), bound);
    }
    if let Some(u) = n.as_u64() {
        return cmp_int_f64(i128::from(u), bound);
    }
    n.as_f64()?.partial_cmp(&bound)
}

/// Whether the number equals the integer `b` exactly.
pub(crate) fn eq_i128(n: &Number, b: i128) -> bool {
    if let Some(i) = n.as_i64() {
        return i128::from(i) == b;
    }
    if let Some(u) = n.as_u64() {
        return i128::from(u) == b;
    }
    n.as_f64()
        .and_then(|f| cmp_int_f64(b, f))
        .is_some_and(|o| o == Ordering::Equal)
}

/// Whether the number equals the float `b` exactly.
pub(crate) fn eq_f64(n: &Number, b: f64) -> bool {
    cmp(n, b) == Some(Ordering::Equal)
}

/// Whether two JSON numbers are mathematically equal.
pub(crate) fn num_eq(a: &Number, b: &Number) -> bool {
    if let Some(i) = a.as_i64() {
        return eq_i128(b, i128::from(i));
    }
    if let Some(u) = a.as_u64() {
        return eq_i128(b, i128::from(u));
    }
    match a.as_f64() {
        Some(f) => eq_f64(b, f),
        None => false,
    }
}

/// A finite non-zero number as `mantissa × 10^exponent` with the mantissa's trailing zeros
/// moved into the exponent, read from its shortest decimal form (`0.1` is `1 × 10^-1`).
fn decimal(n: &Number) -> Option<(u128, i32)> {
    let (mut m, mut e) = if let Some(i) = n.as_i64() {
        (u128::from(i.unsigned_abs()), 0)
    } else if let Some(u) = n.as_u64() {
        (u128::from(u), 0)
    } else {
        let f = n.as_f64()?;
        decimal_f64(f)?
    };
    if m == 0 {
        return Some((0, 0));
    }
    while m % 10 == 0 {
        m /= 10;
        e += 1;
    }
    Some((m, e))
}

fn decimal_f64(f: f64) -> Option<(u128, i32)> {
    if !f.is_finite() {
        return None;
    }
    // `{:e}` prints the shortest digits that read back as `f`: `1.2345e-5`.
    let text = format!("{:e}", f.abs());
    let (digits, exp) = text.split_once('e')?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let mut m: u128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        m = m
            .checked_mul(10)?
            .checked_add(u128::from(b.checked_sub(b'0')?))?;
    }
    let frac_len = i32::try_from(frac.len()).ok()?;
    Some((m, exp - frac_len))
}

/// `multipleOf`: whether `n / m` is an integer, reading both in decimal.
pub(crate) fn is_multiple_of(n: &Number, m: f64) -> bool {
    if !(m.is_finite() && m > 0.0) {
        // Not a valid `multipleOf`; the compiler rejects it. Impose nothing.
        return true;
    }
    // Integers against whole divisors: exact modulo.
    if m.fract() == 0.0 && m <= 9_007_199_254_740_992.0 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let d = m as u64;
        if let Some(i) = n.as_i64() {
            return i.unsigned_abs() % d == 0;
        }
        if let Some(u) = n.as_u64() {
            return u % d == 0;
        }
        // A float instance against a whole divisor: exact in binary, as `jsonschema` reads it
        // (`9.223372036854776e18` is 2^63, which 5 does not divide).
        if let Some(f) = n.as_f64() {
            return f.fract() == 0.0 && f % m == 0.0;
        }
    }
    let Some((nm, ne)) = decimal(n) else {
        return false;
    };
    if nm == 0 {
        return true;
    }
    let Some((mm, me)) = decimal(&Number::from_f64(m).unwrap_or_else(|| Number::from(1))) else {
        return true;
    };
    if mm == 0 {
        return true;
    }
    // n / m = (nm / mm) × 10^(ne - me)
    let k = ne - me;
    if k >= 0 {
        // nm × 10^k ≡ 0 (mod mm)
        let mut r = nm % mm;
        for _ in 0..k {
            if r == 0 {
                break;
            }
            r = (r * 10) % mm;
        }
        r == 0
    } else {
        // nm ≡ 0 (mod mm × 10^-k)
        let k = k.unsigned_abs();
        match 10u128.checked_pow(k).and_then(|p| p.checked_mul(mm)) {
            Some(d) => nm % d == 0,
            // The divisor exceeds every possible mantissa.
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Number {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn multiple_of_reads_decimals() {
        assert!(is_multiple_of(&n("0.3"), 0.1));
        assert!(is_multiple_of(&n("4.5"), 1.5));
        assert!(!is_multiple_of(&n("4.6"), 1.5));
        assert!(is_multiple_of(&n("10"), 2.5));
        assert!(!is_multiple_of(&n("0.0001"), 0.01));
        assert!(is_multiple_of(&n("1e300"), 1e-300));
        assert!(is_multiple_of(&n("-9223372036854775808"), 2.0));
        assert!(is_multiple_of(&n("18446744073709551615"), 5.0));
        assert!(!is_multiple_of(&n("18446744073709551615"), 2.0));
        assert!(is_multiple_of(&n("0"), 0.7));
    }

    #[test]
    fn comparisons_are_exact() {
        assert_eq!(
            cmp(&n("9007199254740993"), 9007199254740992.0),
            Some(Ordering::Greater)
        );
        assert_eq!(cmp(&n("1"), 1.0), Some(Ordering::Equal));
        assert_eq!(cmp(&n("-1"), -0.5), Some(Ordering::Less));
        assert_eq!(cmp(&n("18446744073709551615"), 1e300), Some(Ordering::Less));
        assert!(num_eq(&n("1"), &n("1.0")));
        assert!(!num_eq(&n("9007199254740993"), &n("9007199254740992.0")));
        assert!(is_integer(&n("1.0")));
        let max = super::super::Num::Int(i64::MAX);
        assert_eq!(
            cmp_bound(&n("9223372036854775807"), max),
            Some(Ordering::Equal)
        );
        assert_eq!(
            cmp_bound(&n("9223372036854775808"), max),
            Some(Ordering::Greater)
        );
        assert_eq!(cmp_bound(&n("9.3e18"), max), Some(Ordering::Greater));
        assert_eq!(
            cmp_bound(&n("-1.5"), super::super::Num::Int(-1)),
            Some(Ordering::Less)
        );
        assert!(!is_integer(&n("1.5")));
    }
}

//! Whole days between two ISO dates, without a date library.

/// Days since 1970-01-01 of a `YYYY-MM-DD` date (proleptic Gregorian).
fn days_from_civil(date: &str) -> Option<i64> {
    let mut parts = date.splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// `to - from` in days.
pub fn between(from: &str, to: &str) -> Option<i64> {
    Some(days_from_civil(to)? - days_from_civil(from)?)
}

#[cfg(test)]
mod tests {
    #[test]
    fn spans() {
        assert_eq!(super::between("2026-03-01", "2026-03-15"), Some(14));
        assert_eq!(super::between("2024-02-28", "2024-03-01"), Some(2));
        assert_eq!(super::between("1970-01-01", "1970-01-01"), Some(0));
        assert_eq!(super::between("x", "1970-01-01"), None);
    }
}

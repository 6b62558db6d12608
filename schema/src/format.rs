//! The asserted `format`s: RFC 3339 dates and times, RFC 4122 UUIDs, RFC 5321 email
//! addresses, RFC 3986 URIs, IP addresses and RFC 1123 host names.

use std::net::{Ipv4Addr, Ipv6Addr};

/// A `format` keyword. The named formats are validated; [`Format::Other`] is an annotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// RFC 3339 `full-date`: `2024-02-29`.
    Date,
    /// RFC 3339 `date-time`: `2024-02-29T12:00:00Z`.
    DateTime,
    /// RFC 3339 `full-time`, with its offset: `12:00:00.5+01:00`.
    Time,
    /// A hyphenated UUID: `123e4567-e89b-12d3-a456-426614174000`.
    Uuid,
    /// An RFC 5321 mailbox: `local@example.com`, `"quoted local"@[127.0.0.1]`.
    Email,
    /// An absolute RFC 3986 URI: `https://example.com/a?b#c`.
    Uri,
    /// A dotted-quad IPv4 address.
    Ipv4,
    /// An IPv6 address.
    Ipv6,
    /// An RFC 1123 host name.
    Hostname,
    /// Any other format: not asserted.
    Other,
}

impl Format {
    /// The keyword's value: `"date-time"`, …; `None` for [`Format::Other`].
    pub const fn name(self) -> Option<&'static str> {
        Some(match self {
            Format::Date => "date",
            Format::DateTime => "date-time",
            Format::Time => "time",
            Format::Uuid => "uuid",
            Format::Email => "email",
            Format::Uri => "uri",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Hostname => "hostname",
            Format::Other => return None,
        })
    }

    /// The format for a keyword value (`Other` for formats that are not asserted).
    pub fn from_name(name: &str) -> Format {
        match name {
            "date" => Format::Date,
            "date-time" => Format::DateTime,
            "time" => Format::Time,
            "uuid" => Format::Uuid,
            "email" => Format::Email,
            "uri" => Format::Uri,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "hostname" => Format::Hostname,
            _ => Format::Other,
        }
    }

    /// Whether `s` is in this format.
    pub fn is_valid(self, s: &str) -> bool {
        match self {
            Format::Date => is_date(s.as_bytes()),
            Format::DateTime => is_date_time(s.as_bytes()),
            Format::Time => is_time(s.as_bytes()),
            Format::Uuid => is_uuid(s.as_bytes()),
            Format::Email => is_email(s),
            Format::Uri => is_uri(s.as_bytes()),
            Format::Ipv4 => s.parse::<Ipv4Addr>().is_ok(),
            Format::Ipv6 => s.parse::<Ipv6Addr>().is_ok(),
            Format::Hostname => is_hostname(s),
            Format::Other => true,
        }
    }
}

fn digits(b: &[u8]) -> Option<u32> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(b.iter().fold(0, |acc, d| acc * 10 + u32::from(d - b'0')))
}

fn is_date(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) =
        (digits(&b[0..4]), digits(&b[5..7]), digits(&b[8..10]))
    else {
        return false;
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

fn is_time(b: &[u8]) -> bool {
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (digits(&b[0..2]), digits(&b[3..5]), digits(&b[6..8]))
    else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 8;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    let Some(&sign) = b.get(i) else {
        return false;
    };
    // Minutes east of UTC.
    let offset: i32 = match sign {
        b'Z' | b'z' if i + 1 == b.len() => 0,
        b'+' | b'-' if b.len() - i == 6 && b[i + 3] == b':' => {
            let (Some(oh), Some(om)) = (digits(&b[i + 1..i + 3]), digits(&b[i + 4..i + 6])) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let m = (oh * 60 + om) as i32;
            if sign == b'+' { m } else { -m }
        }
        _ => return false,
    };
    if second == 60 {
        // A leap second happens at 23:59:60 UTC only.
        let utc = ((hour * 60 + minute) as i32 - offset).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

fn is_date_time(b: &[u8]) -> bool {
    b.len() > 11 && matches!(b[10], b'T' | b't') && is_date(&b[..10]) && is_time(&b[11..])
}

/// Where a UUID's hyphens stand: `8-4-4-4-12` hex digits.
const UUID_HYPHENS: [bool; 36] = {
    let mut at = [false; 36];
    at[8] = true;
    at[13] = true;
    at[18] = true;
    at[23] = true;
    at
};

fn is_uuid(b: &[u8]) -> bool {
    let Ok(b) = <&[u8; 36]>::try_from(b) else {
        return false;
    };
    // Every byte checked, without stopping at the first bad one: the compiler checks many
    // bytes at once this way, and a UUID is short.
    b.iter().zip(UUID_HYPHENS).fold(true, |ok, (&c, hyphen)| {
        ok & if hyphen {
            c == b'-'
        } else {
            c.is_ascii_hexdigit()
        }
    })
}

/// RFC 1123 host name: dot-separated labels of letters, digits and hyphens, 1–63 bytes each,
/// neither starting nor ending with a hyphen, at most 253 bytes, no trailing dot. A label with
/// `--` in its third and fourth places must be an `xn--` label holding valid Punycode.
fn is_hostname(s: &str) -> bool {
    if s.is_empty() || s.len() > 253 {
        return false;
    }
    s.split('.').all(|label| {
        let b = label.as_bytes();
        if b.is_empty()
            || b.len() > 63
            || b[0] == b'-'
            || b[b.len() - 1] == b'-'
            || !b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        {
            return false;
        }
        if b.len() >= 4 && &b[2..4] == b"--" {
            return b[..2].eq_ignore_ascii_case(b"xn") && punycode_decodes(&label[4..]);
        }
        true
    })
}

/// Whether `input` decodes as RFC 3492 Punycode to a non-empty label.
fn punycode_decodes(input: &str) -> bool {
    const BASE: u32 = 36;
    const TMIN: u32 = 1;
    const TMAX: u32 = 26;
    let (basic, rest) = match input.rfind('-') {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => ("", input),
    };
    if rest.is_empty() {
        return false;
    }
    let mut len = basic.len() as u32;
    let mut n: u32 = 128;
    let mut bias: u32 = 72;
    let mut i: u32 = 0;
    let mut chars = rest.bytes().peekable();
    let mut first = true;
    while chars.peek().is_some() {
        let old_i = i;
        let mut w: u32 = 1;
        let mut k = BASE;
        loop {
            let Some(c) = chars.next() else {
                return false;
            };
            let digit = match c {
                b'a'..=b'z' => u32::from(c - b'a'),
                b'A'..=b'Z' => u32::from(c - b'A'),
                b'0'..=b'9' => u32::from(c - b'0') + 26,
                _ => return false,
            };
            let Some(next) = digit.checked_mul(w).and_then(|d| i.checked_add(d)) else {
                return false;
            };
            i = next;
            let t = if k <= bias {
                TMIN
            } else if k >= bias + TMAX {
                TMAX
            } else {
                k - bias
            };
            if digit < t {
                break;
            }
            let Some(next_w) = w.checked_mul(BASE - t) else {
                return false;
            };
            w = next_w;
            k += BASE;
        }
        len += 1;
        // Adapt the bias.
        let mut delta = if first {
            (i - old_i) / 700
        } else {
            (i - old_i) / 2
        };
        first = false;
        delta += delta / len;
        let mut k = 0;
        while delta > ((BASE - TMIN) * TMAX) / 2 {
            delta /= BASE - TMIN;
            k += BASE;
        }
        bias = k + (BASE - TMIN + 1) * delta / (delta + 38);
        let Some(next_n) = n.checked_add(i / len) else {
            return false;
        };
        n = next_n;
        i %= len;
        if char::from_u32(n).is_none() {
            return false;
        }
        i += 1;
    }
    true
}

fn is_atext(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&c)
}

/// RFC 5321 `Mailbox`: a dot-string or quoted-string local part of at most 64 bytes, `@`, and
/// a host name or an address literal (`[192.0.2.1]`, `[IPv6:2001:db8::1]`).
fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    if local.is_empty() || local.len() > 64 {
        return false;
    }
    let lb = local.as_bytes();
    let local_ok = if lb.len() >= 2 && lb[0] == b'"' && lb[lb.len() - 1] == b'"' {
        let inner = &lb[1..lb.len() - 1];
        let mut i = 0;
        let mut ok = true;
        while i < inner.len() {
            let c = inner[i];
            if c == b'\\' {
                match inner.get(i + 1) {
                    Some(n) if (0x21..=0x7e).contains(n) => i += 2,
                    _ => {
                        ok = false;
                        break;
                    }
                }
            } else if c == b' '
                || c == 0x21
                || (0x23..=0x5b).contains(&c)
                || (0x5d..=0x7e).contains(&c)
            {
                i += 1;
            } else {
                ok = false;
                break;
            }
        }
        ok
    } else {
        local
            .split('.')
            .all(|atom| !atom.is_empty() && atom.bytes().all(is_atext))
    };
    if !local_ok || domain.is_empty() || domain.len() > 254 {
        return false;
    }
    if let Some(literal) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        if literal.len() >= 5 && literal.as_bytes()[..5].eq_ignore_ascii_case(b"IPv6:") {
            return literal[5..].parse::<Ipv6Addr>().is_ok();
        }
        return literal.parse::<Ipv4Addr>().is_ok();
    }
    is_hostname(domain)
}

const UNRESERVED_SUB_DELIMS: &[u8] = b"-._~!$&'()*+,;=";

fn is_unreserved_or_sub_delim(c: u8) -> bool {
    c.is_ascii_alphanumeric() || UNRESERVED_SUB_DELIMS.contains(&c)
}

/// Scans `*( unreserved / pct-encoded / sub-delims / extra )` from `i`; `None` on a broken
/// percent-encoding.
fn scan(b: &[u8], mut i: usize, extra: &[u8]) -> Option<usize> {
    while i < b.len() {
        let c = b[i];
        if is_unreserved_or_sub_delim(c) || extra.contains(&c) {
            i += 1;
        } else if c == b'%' {
            if i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() {
                i += 3;
            } else {
                return None;
            }
        } else {
            break;
        }
    }
    Some(i)
}

/// RFC 3986 `URI`: `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
fn is_uri(b: &[u8]) -> bool {
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    if !b.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let mut i = 1;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'+' | b'-' | b'.')) {
        i += 1;
    }
    if b.get(i) != Some(&b':') {
        return false;
    }
    i += 1;
    if b[i..].starts_with(b"//") {
        i += 2;
        let end = b[i..]
            .iter()
            .position(|c| matches!(c, b'/' | b'?' | b'#'))
            .map_or(b.len(), |p| i + p);
        if !is_authority(&b[i..end]) {
            return false;
        }
        i = end;
    }
    // path-abempty / path-absolute / path-rootless / path-empty: segments of pchar and "/".
    let Some(end) = scan(b, i, b":@/") else {
        return false;
    };
    i = end;
    if b.get(i) == Some(&b'?') {
        let Some(end) = scan(b, i + 1, b":@/?") else {
            return false;
        };
        i = end;
    }
    if b.get(i) == Some(&b'#') {
        let Some(end) = scan(b, i + 1, b":@/?") else {
            return false;
        };
        i = end;
    }
    i == b.len()
}

/// `[ userinfo "@" ] host [ ":" port ]`.
fn is_authority(b: &[u8]) -> bool {
    let host_port = match b.iter().rposition(|c| *c == b'@') {
        Some(at) => {
            // userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
            if scan(b, 0, b":") != Some(at) {
                return false;
            }
            &b[at + 1..]
        }
        None => b,
    };
    let (host_end, port) = if host_port.first() == Some(&b'[') {
        let Some(close) = host_port.iter().position(|c| *c == b']') else {
            return false;
        };
        if !is_ip_literal(&host_port[1..close]) {
            return false;
        }
        (close + 1, &host_port[close + 1..])
    } else {
        // reg-name (an IPv4 address is also a reg-name)
        let Some(end) = scan(host_port, 0, b"") else {
            return false;
        };
        (end, &host_port[end..])
    };
    let _ = host_end;
    match port.split_first() {
        None => true,
        Some((b':', digits)) => digits.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

/// `IPv6address / IPvFuture`.
fn is_ip_literal(b: &[u8]) -> bool {
    if let Some(rest) = b.strip_prefix(b"v").or_else(|| b.strip_prefix(b"V")) {
        // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        let hex = rest.iter().take_while(|c| c.is_ascii_hexdigit()).count();
        if hex == 0 || rest.get(hex) != Some(&b'.') {
            return false;
        }
        let tail = &rest[hex + 1..];
        return !tail.is_empty()
            && tail
                .iter()
                .all(|c| is_unreserved_or_sub_delim(*c) || *c == b':');
    }
    std::str::from_utf8(b).is_ok_and(|s| s.parse::<Ipv6Addr>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::Format::*;
    use proptest::prelude::*;

    proptest! {
        /// The UUID check, which reads every byte at once, against its definition read byte by
        /// byte, on texts near and far from a UUID.
        #[test]
        fn uuid_check_is_its_definition(text in "[0-9a-fA-F\\-gG ]{30,40}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-fG]{4}-[0-9a-f-]{4}-[0-9a-f]{12}") {
            let b = text.as_bytes();
            let defined = b.len() == 36
                && b.iter().enumerate().all(|(i, c)| match i {
                    8 | 13 | 18 | 23 => *c == b'-',
                    _ => c.is_ascii_hexdigit(),
                });
            prop_assert_eq!(super::is_uuid(b), defined);
        }
    }

    #[test]
    fn dates_and_times() {
        assert!(Date.is_valid("2024-02-29"));
        assert!(!Date.is_valid("2023-02-29"));
        assert!(!Date.is_valid("2023-13-01"));
        assert!(!Date.is_valid("2023-1-01"));
        assert!(!Date.is_valid("２０２３-01-01"));
        assert!(DateTime.is_valid("2024-02-29T23:59:60Z"));
        assert!(DateTime.is_valid("1990-12-31T15:59:60-08:00"));
        assert!(!DateTime.is_valid("1990-12-31T15:59:60+08:00"));
        assert!(DateTime.is_valid("2024-02-29t12:00:00.123+01:30"));
        assert!(!DateTime.is_valid("2024-02-29 12:00:00Z"));
        assert!(!DateTime.is_valid("2024-02-29T12:00:00"));
        assert!(!Time.is_valid("12:00:00.Z"));
        assert!(!Time.is_valid("24:00:00Z"));
    }

    #[test]
    fn uuids_emails_uris_hosts() {
        assert!(Uuid.is_valid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!Uuid.is_valid("123e4567e89b12d3a456426614174000"));
        assert!(Email.is_valid("a.b+c@example.com"));
        assert!(Email.is_valid("\"a b\"@example.com"));
        assert!(Email.is_valid("x@[127.0.0.1]"));
        assert!(Email.is_valid("x@[IPv6:::1]"));
        assert!(!Email.is_valid("a..b@example.com"));
        assert!(!Email.is_valid("a@-example.com"));
        assert!(!Email.is_valid("@example.com"));
        assert!(Uri.is_valid("https://user:pw@example.com:8080/a/b?c=d#e"));
        assert!(Uri.is_valid("urn:isbn:0451450523"));
        assert!(Uri.is_valid("http://[::1]/"));
        assert!(!Uri.is_valid("/relative"));
        assert!(!Uri.is_valid("http://exa mple.com"));
        assert!(!Uri.is_valid("http://example.com/%zz"));
        assert!(Hostname.is_valid("example.com"));
        assert!(Hostname.is_valid("xn--bcher-kva.example"));
        assert!(!Hostname.is_valid("ab--c.example"));
        assert!(!Hostname.is_valid("example.com."));
        assert!(Ipv4.is_valid("192.168.0.1"));
        assert!(!Ipv4.is_valid("192.168.00.1"));
        assert!(Ipv6.is_valid("2001:db8::1"));
    }
}

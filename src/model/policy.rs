//! Tool policies: auth level, rate limit and timeout, parsed from their
//! manifest spelling.

/// The least caller level a tool allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthLevel {
    #[default]
    None,
    User,
    Admin,
}

impl AuthLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            AuthLevel::None => "none",
            AuthLevel::User => "user",
            AuthLevel::Admin => "admin",
        }
    }

    /// Parses an auth level; the message on failure names the three levels.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "none" => Ok(AuthLevel::None),
            "user" => Ok(AuthLevel::User),
            "admin" => Ok(AuthLevel::Admin),
            other => Err(format!(
                "auth must be one of admin, none, user, got {other:?}"
            )),
        }
    }
}

/// A tool's `approval`, as written: whether a person approves each call before its handler
/// runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Approval {
    /// `approval: required`: every call is held until a person approves it.
    Required,
    /// `approval: none`: calls run without one, even where `toolc.toml` asks for approval of
    /// destructive tools.
    None,
}

impl Approval {
    pub fn as_str(self) -> &'static str {
        match self {
            Approval::Required => "required",
            Approval::None => "none",
        }
    }

    /// Parses `required` or `none`.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "required" => Ok(Approval::Required),
            "none" => Ok(Approval::None),
            other => Err(format!(
                "approval must be one of required, none, got {other:?}"
            )),
        }
    }
}

/// `N/unit`: at most `count` calls per `period_secs` seconds, per caller and tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct RateLimit {
    pub count: u32,
    pub period_secs: u64,
}

impl RateLimit {
    /// Parses `N/unit` with N ≥ 1 and unit one of s, sec, second, min,
    /// minute, h, hour, d, day.
    pub fn parse(s: &str) -> Result<Self, String> {
        let bad = |why: &str| {
            format!(
                "rate_limit must look like `10/min` (N/unit, unit one of s, sec, second, min, minute, h, hour, d, day), got {s:?}: {why}"
            )
        };
        let (n, unit) = s.split_once('/').ok_or_else(|| bad("no `/`"))?;
        let n = n.trim();
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("the count is not a whole number"));
        }
        let count: u32 = n.parse().map_err(|_| bad("the count is too large"))?;
        if count == 0 {
            return Err(bad("the count must be at least 1"));
        }
        let period_secs = match unit.trim() {
            "s" | "sec" | "second" => 1,
            "min" | "minute" => 60,
            "h" | "hour" => 3600,
            "d" | "day" => 86_400,
            _ => return Err(bad("unknown unit")),
        };
        Ok(RateLimit { count, period_secs })
    }
}

/// Checks a `timeout_ms` value; the message on failure says what is allowed.
pub fn parse_timeout(v: f64) -> Result<u64, String> {
    if v <= 0.0 {
        return Err(format!("timeout_ms must be positive, got {v}"));
    }
    if v.fract() != 0.0 || v > u64::MAX as f64 {
        return Err(format!(
            "timeout_ms must be a whole number of milliseconds, got {v}"
        ));
    }
    Ok(v as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limits() {
        assert_eq!(
            RateLimit::parse("10/min"),
            Ok(RateLimit {
                count: 10,
                period_secs: 60
            })
        );
        assert_eq!(RateLimit::parse("1/d").unwrap().period_secs, 86_400);
        for bad in [
            "0/min",
            "ten/min",
            "10",
            "10/week",
            "-1/s",
            "/s",
            "99999999999/s",
        ] {
            assert!(RateLimit::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn timeouts_and_auth() {
        assert_eq!(parse_timeout(1500.0), Ok(1500));
        assert_eq!(
            parse_timeout(0.0).unwrap_err(),
            "timeout_ms must be positive, got 0"
        );
        assert_eq!(
            parse_timeout(-5.0).unwrap_err(),
            "timeout_ms must be positive, got -5"
        );
        assert!(parse_timeout(1.5).is_err());
        assert_eq!(
            AuthLevel::parse("root").unwrap_err(),
            "auth must be one of admin, none, user, got \"root\""
        );
        assert_eq!(Approval::parse("required"), Ok(Approval::Required));
        assert_eq!(Approval::parse("none"), Ok(Approval::None));
        assert_eq!(
            Approval::parse("yes").unwrap_err(),
            "approval must be one of required, none, got \"yes\""
        );
    }
}

//! `dns_name`, `dns_domain` and `rel_dns_name`: Heat's
//! `DNSNameConstraint`, `DNSDomainConstraint` and
//! `RelativeDNSNameConstraint`, over `heat.common.netutils.
//! validate_dns_format`.

/// `FQDN_MAX_LEN`.
const FQDN_MAX_LEN: usize = 255;

/// `DNSNameConstraint`.
pub(super) fn dns_name(value: &str) -> Option<String> {
    validate_dns_format(value)
        .err()
        .map(|reason| format!("'{value}' not in valid format. Reason: {reason}"))
}

/// `RelativeDNSNameConstraint`: empty, or not ending with a dot, short
/// enough to take a domain, and a valid DNS name.
pub(super) fn rel_dns_name(value: &str) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    if value.ends_with('.') {
        return Some(format!(
            "'{value}' is a FQDN. It should be a relative domain name."
        ));
    }
    let length = value.chars().count();
    if length > FQDN_MAX_LEN - 3 {
        return Some(format!(
            "'{value}' contains '{length}' characters. Adding a domain name will cause it to exceed the maximum length of a FQDN of '{FQDN_MAX_LEN}'."
        ));
    }
    dns_name(value)
}

/// `DNSDomainConstraint`: empty, or a valid DNS name ending with a dot.
pub(super) fn dns_domain(value: &str) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    if let Some(message) = dns_name(value) {
        return Some(message);
    }
    (!value.ends_with('.')).then(|| format!("'{value}' must end with '.'."))
}

/// `validate_dns_format`: the reason it raises, if it does.
fn validate_dns_format(data: &str) -> Result<(), String> {
    if data.is_empty() {
        return Ok(());
    }
    let trimmed = data.strip_suffix('.').unwrap_or(data);
    if trimmed.chars().count() > FQDN_MAX_LEN {
        return Err(format!(
            "'{trimmed}' exceeds the {FQDN_MAX_LEN} character FQDN limit"
        ));
    }
    let names: Vec<&str> = trimmed.split('.').collect();
    for name in &names {
        if name.is_empty() {
            return Err("Encountered an empty component.".to_owned());
        }
        if name.ends_with('-') || name.starts_with('-') {
            return Err(format!(
                "Name '{name}' must not start or end with a hyphen."
            ));
        }
        // re.match("[a-z0-9-]{1,63}$"): `$` also matches before a final
        // newline.
        let label = name.strip_suffix('\n').unwrap_or(name);
        if label.is_empty()
            || label.len() > 63
            || !label
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(format!(
                "Name '{name}' must be 1-63 characters long, each of which can only be alphanumeric or a hyphen."
            ));
        }
    }
    // RFC 1123: a top-level domain is not all numeric (`^[0-9]+$`).
    if let Some(last) = names
        .last()
        .filter(|_| data.ends_with('.') && names.len() > 1)
    {
        let tld = last.strip_suffix('\n').unwrap_or(last);
        if !tld.is_empty() && tld.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("TLD '{last}' must not be all numeric."));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(dns_name("host.example.com"), None);
        assert_eq!(
            dns_name("Host"),
            Some("'Host' not in valid format. Reason: Name 'Host' must be 1-63 characters long, each of which can only be alphanumeric or a hyphen.".to_owned())
        );
        assert_eq!(
            dns_domain("example.com"),
            Some("'example.com' must end with '.'.".to_owned())
        );
        assert_eq!(dns_domain("example.com."), None);
        assert_eq!(
            rel_dns_name("host."),
            Some("'host.' is a FQDN. It should be a relative domain name.".to_owned())
        );
    }
}

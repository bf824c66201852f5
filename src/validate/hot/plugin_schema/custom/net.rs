//! `ip_addr`, `ip_or_cidr`, `net_cidr` and `mac_addr`: Heat's
//! `IPConstraint`, `IPCIDRConstraint`, `CIDRConstraint` and
//! `MACConstraint`, which call neutron-lib's `validate_ip_address` and
//! `validate_subnet`, netaddr 1.3's `IPAddress`, `IPNetwork`,
//! `cidr_abbrev_to_verbose` and `valid_mac`, and through them glibc's
//! `inet_pton`.

use crate::eval::python;

/// `IPConstraint`: a string neutron-lib's `validate_ip_address` accepts.
pub(super) fn ip_addr(value: &str) -> Option<String> {
    validate_ip_address(value).map(|_| "Invalid IP address".to_owned())
}

/// `IPCIDRConstraint`: `validate_subnet` when the value holds a `/`,
/// else `validate_ip_address`, with their messages.
pub(super) fn ip_or_cidr(value: &str) -> Option<String> {
    if value.contains('/') {
        validate_subnet(value)
    } else {
        validate_ip_address(value)
    }
}

/// `CIDRConstraint`: `IPNetwork(cidr_abbrev_to_verbose(value))` must not
/// raise (its message is then Heat's, with Heat's trailing space), and
/// `validate_subnet` must accept the value.
pub(super) fn net_cidr(value: &str) -> Option<String> {
    let verbose = match cidr_abbrev_to_verbose(value) {
        Ok(v) => v,
        Err(e) => return Some(format!("Invalid net cidr {e} ")),
    };
    if let Err(e) = ip_network(&verbose) {
        return Some(format!("Invalid net cidr {e} "));
    }
    validate_subnet(value)
}

/// `MACConstraint`: `netaddr.valid_mac`, the EUI-48 formats netaddr reads
/// (six groups of one or two hex digits joined by `:` or `-`, three of
/// one to four joined by `:`, `-` or `.`, two of five or six joined by `-`
/// or `:`, or 12 or 11 bare digits), matched with Python's `$`, which
/// also matches before a final newline.
pub(super) fn mac_addr(value: &str) -> Option<String> {
    let body = value.strip_suffix('\n').unwrap_or(value);
    let groups = |sep: char, count: usize, min: usize, max: usize| {
        let parts: Vec<&str> = body.split(sep).collect();
        parts.len() == count
            && parts
                .iter()
                .all(|p| (min..=max).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    let bare =
        (body.len() == 12 || body.len() == 11) && body.bytes().all(|b| b.is_ascii_hexdigit());
    let ok = groups(':', 6, 1, 2)
        || groups('-', 6, 1, 2)
        || groups(':', 3, 1, 4)
        || groups('-', 3, 1, 4)
        || groups('.', 3, 1, 4)
        || groups('-', 2, 5, 6)
        || groups(':', 2, 5, 6)
        || bare;
    (!ok).then(|| "Invalid MAC address.".to_owned())
}

/// Why netaddr refuses an address: `AddrFormatError`, which its version
/// detection catches, or another exception (a `ValueError`), which
/// escapes with its message.
enum Refusal {
    Format,
    Other(&'static str),
}

const NETMASK_IN_ADDRESS: &str =
    "IPAddress() does not support netmasks or subnet prefixes! See documentation for details.";

/// neutron-lib's `validate_ip_address`: `None` when it accepts, else its
/// message.
fn validate_ip_address(data: &str) -> Option<String> {
    let invalid = || Some(format!("'{data}' is not a valid IP address"));
    if data.chars().any(python::is_space) {
        return invalid();
    }
    // `IPAddress(data, flags=ZEROFILL)`, and on a `ValueError` once more
    // without the flag, which then fails too.
    let v4 = if data.contains(':') {
        None
    } else {
        zerofill_ipv4(data)
    };
    if v4.is_none() && inet_pton6(data).is_err() {
        return invalid();
    }
    if !data.contains(':') && data.matches('.').count() != 3 {
        return invalid();
    }
    match v4 {
        Some(ip) if ip != data => Some(format!(
            "'{data}' is not an accepted IP address, '{ip}' is recommended"
        )),
        _ => None,
    }
}

/// netaddr's IPv4 parsing with `ZEROFILL`: each part through Python's
/// `int()` and `'%d'`, then `inet_pton`. The address as netaddr writes
/// it.
fn zerofill_ipv4(data: &str) -> Option<String> {
    let parts: Option<Vec<String>> = data
        .split('.')
        .map(|p| python::int_of_str(p).map(|i| i.to_string()))
        .collect();
    let joined = parts?.join(".");
    let n = inet_pton4(joined.as_bytes())?;
    Some(std::net::Ipv4Addr::from(n).to_string())
}

/// neutron-lib's `validate_subnet`: `None` when it accepts, else its
/// message.
fn validate_subnet(data: &str) -> Option<String> {
    let ok = !data.chars().any(python::is_space)
        && data.contains('/')
        && match ip_network(data) {
            Ok(Network::V4(ip, prefix)) => {
                format!("{}/{prefix}", std::net::Ipv4Addr::from(ip)) == data
            }
            Ok(Network::V6) => true,
            Err(_) => false,
        };
    (!ok).then(|| format!("'{data}' is not a valid IP subnet"))
}

/// What `IPNetwork` makes of a string: an IPv4 network (address and
/// prefix length, for `str()`), or an IPv6 one.
enum Network {
    V4(u32, u32),
    V6,
}

/// `netaddr.IPNetwork(addr)`: IPv4 first, then IPv6; the message of the
/// exception it raises.
fn ip_network(addr: &str) -> Result<Network, String> {
    match parse_ip_network(addr, 4) {
        Ok(prefix) => return Ok(prefix),
        Err(Refusal::Other(m)) => return Err(m.to_owned()),
        Err(Refusal::Format) => {}
    }
    match parse_ip_network(addr, 6) {
        Ok(net) => Ok(net),
        Err(Refusal::Other(m)) => Err(m.to_owned()),
        Err(Refusal::Format) => Err(format!("invalid IPNetwork {addr}")),
    }
}

/// netaddr's `parse_ip_network` for one IP version: the address before
/// the first `/` (strict `inet_pton`, no leading zeros in IPv4), and
/// after it a prefix length (Python's `int()`) or a netmask or hostmask.
fn parse_ip_network(addr: &str, version: u8) -> Result<Network, Refusal> {
    let (val1, val2) = match addr.split_once('/') {
        Some((a, b)) => (a, Some(b)),
        None => (addr, None),
    };
    let width: u32 = if version == 4 { 32 } else { 128 };
    let value = ip_address(val1, version)?;
    let prefix = match val2 {
        None => width,
        Some(p) => {
            if let Some(n) = python::int_of_str(p) {
                u32::try_from(n)
                    .ok()
                    .filter(|n| *n <= width)
                    .ok_or(Refusal::Format)?
            } else {
                let mask = ip_address(p, version)?;
                mask_prefix(mask, width).ok_or(Refusal::Format)?
            }
        }
    };
    if version == 4 {
        let ip = u32::try_from(value).map_err(|_| Refusal::Format)?;
        Ok(Network::V4(ip, prefix))
    } else {
        Ok(Network::V6)
    }
}

/// `IPAddress(text, version, flags=INET_PTON)` as a number.
fn ip_address(text: &str, version: u8) -> Result<u128, Refusal> {
    if text.contains('/') {
        return Err(Refusal::Other(NETMASK_IN_ADDRESS));
    }
    if version == 4
        && (text.contains(':') || text.split('.').any(|p| p.len() > 1 && p.starts_with('0')))
    {
        return Err(Refusal::Format);
    }
    if text.contains('\0') {
        // Python's `inet_pton` refuses a string holding a NUL.
        return Err(Refusal::Other("embedded null character"));
    }
    if version == 4 {
        inet_pton4(text.as_bytes())
            .map(u128::from)
            .ok_or(Refusal::Format)
    } else {
        inet_pton6(text).map_err(|()| Refusal::Format)
    }
}

/// The prefix length of a netmask (`is_netmask`, tried first) or a
/// hostmask (`is_hostmask`) of `width` bits.
fn mask_prefix(mask: u128, width: u32) -> Option<u32> {
    let all = if width == 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    let inverse = all ^ mask;
    if inverse & inverse.wrapping_add(1) == 0 {
        return Some(mask.count_ones());
    }
    if mask & mask.wrapping_add(1) == 0 {
        return Some(width - mask.count_ones());
    }
    None
}

/// netaddr's `cidr_abbrev_to_verbose`: a classful abbreviation (`10`,
/// `10/16`, `192.168`) written out; anything else as it is. Its one
/// escaping exception (`IndexError` from a first octet beyond 255 when no
/// prefix is given) is the `Err`.
fn cidr_abbrev_to_verbose(abbrev: &str) -> Result<String, String> {
    if abbrev.contains(':') || abbrev.is_empty() {
        return Ok(abbrev.to_owned());
    }
    if let Some(i) = python::int_of_str(abbrev) {
        return Ok(match classful_prefix(i) {
            Some(prefix) => format!("{i}.0.0.0/{prefix}"),
            None => abbrev.to_owned(),
        });
    }
    let (part, prefix) = match abbrev.split_once('/') {
        Some((part, prefix)) => {
            if !python::int_of_str(prefix).is_some_and(|p| (0..=32).contains(&p)) {
                return Ok(abbrev.to_owned());
            }
            (part, Some(prefix.to_owned()))
        }
        None => (abbrev, None),
    };
    let mut tokens: Vec<&str> = part.split('.').collect();
    if tokens.len() > 4 {
        return Ok(abbrev.to_owned());
    }
    tokens.resize(4, "0");
    let prefix = match prefix {
        Some(p) => p,
        None => match python::int_of_str(tokens[0]) {
            None => return Ok(abbrev.to_owned()),
            Some(octet) => match classful_prefix(octet) {
                Some(p) => p.to_string(),
                None => return Err(format!("Invalid octet: {octet}!")),
            },
        },
    };
    Ok(format!("{}/{prefix}", tokens.join(".")))
}

/// The prefix of a first octet in the old classful scheme; `None` out of
/// 0 to 255.
fn classful_prefix(octet: i128) -> Option<u8> {
    Some(match octet {
        0..=127 => 8,
        128..=191 => 16,
        192..=223 => 24,
        224..=239 => 4,
        240..=255 => 32,
        _ => return None,
    })
}

/// glibc's `inet_pton(AF_INET, ...)`: four decimal octets of at most 255,
/// without leading zeros.
fn inet_pton4(src: &[u8]) -> Option<u32> {
    let mut octets = 0;
    let mut saw_digit = false;
    let mut current: u32 = 0;
    let mut out: u32 = 0;
    for &ch in src {
        if ch.is_ascii_digit() {
            let new = current * 10 + u32::from(ch - b'0');
            if saw_digit && current == 0 {
                return None;
            }
            if new > 255 {
                return None;
            }
            current = new;
            if !saw_digit {
                octets += 1;
                if octets > 4 {
                    return None;
                }
                saw_digit = true;
            }
        } else if ch == b'.' && saw_digit {
            if octets == 4 {
                return None;
            }
            out = (out << 8) | current;
            current = 0;
            saw_digit = false;
        } else {
            return None;
        }
    }
    if octets < 4 {
        return None;
    }
    Some((out << 8) | current)
}

/// glibc's `inet_pton(AF_INET6, ...)` (resolv/inet_pton.c): up to eight
/// groups of one to four hex digits, one `::`, and a dotted IPv4 address
/// as the last 32 bits.
fn inet_pton6(text: &str) -> Result<u128, ()> {
    let src = text.as_bytes();
    if src.contains(&0) {
        return Err(());
    }
    let mut words: Vec<u16> = Vec::with_capacity(8);
    let mut tail: Option<u32> = None;
    let mut colon_at: Option<usize> = None;
    let mut i = 0;
    if src.is_empty() {
        return Err(());
    }
    if src[0] == b':' {
        i = 1;
        if src.get(1) != Some(&b':') {
            return Err(());
        }
    }
    let mut token_start = i;
    let mut digits = 0;
    let mut val: u32 = 0;
    while i < src.len() {
        let ch = src[i];
        i += 1;
        if let Some(d) = char::from(ch).to_digit(16) {
            if digits == 4 {
                return Err(());
            }
            val = (val << 4) | d;
            digits += 1;
            continue;
        }
        if ch == b':' {
            token_start = i;
            if digits == 0 {
                if colon_at.is_some() {
                    return Err(());
                }
                colon_at = Some(words.len());
                continue;
            } else if i == src.len() {
                return Err(());
            }
            if words.len() == 8 {
                return Err(());
            }
            words.push(u16::try_from(val).map_err(|_| ())?);
            digits = 0;
            val = 0;
            continue;
        }
        if ch == b'.' && words.len() <= 6 {
            if let Some(v4) = inet_pton4(&src[token_start..]) {
                tail = Some(v4);
                digits = 0;
                break;
            }
        }
        return Err(());
    }
    if digits > 0 {
        if words.len() == 8 {
            return Err(());
        }
        words.push(u16::try_from(val).map_err(|_| ())?);
    }
    if let Some(v4) = tail {
        words.push(u16::try_from(v4 >> 16).map_err(|_| ())?);
        words.push(u16::try_from(v4 & 0xffff).map_err(|_| ())?);
    }
    if let Some(at) = colon_at {
        if words.len() == 8 {
            // `::` would stand for no group at all.
            return Err(());
        }
        let zeros = 8 - words.len();
        words.splice(at..at, std::iter::repeat_n(0, zeros));
    }
    if words.len() != 8 {
        return Err(());
    }
    Ok(words
        .iter()
        .fold(0u128, |acc, w| (acc << 16) | u128::from(*w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inet_pton_is_glibcs() {
        assert_eq!(inet_pton4(b"10.0.0.1"), Some(0x0a00_0001));
        assert_eq!(inet_pton4(b"10.0.0.01"), None);
        assert_eq!(inet_pton4(b"10.0.0"), None);
        assert_eq!(inet_pton6("::"), Ok(0));
        assert_eq!(inet_pton6("::1"), Ok(1));
        assert_eq!(inet_pton6("::ffff:1.2.3.4"), Ok(0xffff_0102_0304));
        assert!(inet_pton6("1::2::3").is_err());
        assert!(inet_pton6("1:2:3:4:5:6:7::8").is_err());
        assert!(inet_pton6("1:").is_err());
    }

    #[test]
    fn masks() {
        assert_eq!(mask_prefix(0xff00_0000, 32), Some(8));
        assert_eq!(mask_prefix(0x0000_00ff, 32), Some(24));
        assert_eq!(mask_prefix(0, 32), Some(0));
        assert_eq!(mask_prefix(0xffff_ffff, 32), Some(32));
        assert_eq!(mask_prefix(0xff00_ff00, 32), None);
        assert_eq!(mask_prefix(u128::MAX, 128), Some(128));
    }
}

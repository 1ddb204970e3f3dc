//! Integers of any size, as Ruby's `Integer`: YAML, JSON and HOCON data
//! hold integers past 64 and 128 bits (an unquoted hex fingerprint, HOCON's
//! `1e100`), and Puppet keeps, prints and compares them exactly.
//!
//! Hand-written rather than a bignum crate's: Hiera never computes with the
//! integers in its data. It reads them (in base 2, 8, 10 or 16), prints them
//! (`format`'s `%x` too), compares them and makes one of a float, and a big
//! one is held as its decimal digits, which is how it is read and printed.
//! num-bigint, which the tests check this module against, added 13.5 KB
//! (gzipped) of arithmetic nothing here uses to the page's first download.

use std::cmp::Ordering;
use std::sync::Arc;

/// An integer. Those that fit 64 bits are held in place; a larger one is
/// shared on the heap as its decimal digits, so that an `Int` stays two
/// words and a [`Value`](super::Value) three.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Int(Repr);

/// One representation a value: `Big` only for what `Small` cannot hold, so
/// that the derived equality and hash are the integers'.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small(i64),
    /// The decimal digits, `-` first when negative, no leading zero.
    Big(Arc<str>),
}

impl Int {
    /// Zero.
    pub const ZERO: Int = Int::small(0);

    /// The integer `i`, for constants.
    pub const fn small(i: i64) -> Int {
        Int(Repr::Small(i))
    }

    /// The integer `i`.
    pub fn new(i: i128) -> Int {
        match i64::try_from(i) {
            Ok(i) => Int::small(i),
            Err(_) => Int(Repr::Big(i.to_string().into())),
        }
    }

    /// The integer of sign `negative` and decimal `digits` (ASCII digits only).
    fn decimal(negative: bool, digits: &str) -> Int {
        let digits = digits.trim_start_matches('0');
        // 18 digits always fit an i64; past them, the i128 says whether it does.
        if digits.len() <= 38 {
            let n: i128 = digits.parse().unwrap_or(0);
            return Int::new(if negative { -n } else { n });
        }
        Int(Repr::Big(if negative { format!("-{digits}").into() } else { digits.into() }))
    }

    /// The integer, if it fits 128 bits.
    pub fn to_i128(&self) -> Option<i128> {
        match &self.0 {
            Repr::Small(i) => Some(i128::from(*i)),
            Repr::Big(text) => text.parse().ok(),
        }
    }

    /// The integer as an index or a count, if it is one.
    pub fn to_usize(&self) -> Option<usize> {
        self.to_i128().and_then(|i| usize::try_from(i).ok())
    }

    /// Ruby's `Integer#to_f`: the nearest float, infinite past its range.
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            Repr::Small(i) => *i as f64,
            Repr::Big(text) => text.parse().unwrap_or(f64::NAN),
        }
    }

    /// Ruby's `Float#to_i`: the float with its fraction dropped, exactly;
    /// nothing for a NaN or an infinity.
    pub fn from_f64(f: f64) -> Option<Int> {
        if !f.is_finite() {
            return None;
        }
        // Rust prints a float's exact value when given a precision.
        Int::from_decimal(&format!("{:.0}", f.trunc()))
    }

    /// The integer written in decimal `text`, after an optional `+` or `-`.
    pub fn from_decimal(text: &str) -> Option<Int> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(Int::decimal(negative, digits))
    }

    /// The integer written in `digits` (no sign, no prefix) in base `radix`
    /// (2 to 36).
    pub fn from_digits(digits: &str, radix: u32) -> Option<Int> {
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        if let Ok(i) = i64::from_str_radix(digits, radix) {
            return Some(Int::small(i));
        }
        if radix == 10 {
            return Some(Int::decimal(false, digits));
        }
        let decimal = rebase(digits.chars().filter_map(|c| c.to_digit(radix)), radix, DECIMAL_LIMB);
        let mut text = decimal.last().map_or_else(String::new, u32::to_string);
        for limb in decimal.iter().rev().skip(1) {
            text.push_str(&format!("{limb:09}"));
        }
        Some(Int::decimal(false, &text))
    }

    /// Whether it is below zero.
    pub fn is_negative(&self) -> bool {
        match &self.0 {
            Repr::Small(i) => *i < 0,
            Repr::Big(text) => text.starts_with('-'),
        }
    }

    /// The decimal digits of its absolute value.
    pub(crate) fn magnitude_text(&self) -> String {
        let text = self.to_string();
        text.trim_start_matches('-').to_string()
    }

    /// The bits of its absolute value, the lowest first, none for zero.
    pub(crate) fn magnitude_bits(&self) -> Vec<bool> {
        let digits = self.magnitude_text();
        let bits = rebase(digits.bytes().map(|d| u32::from(d - b'0')), 10, 2);
        bits.into_iter().map(|b| b == 1).collect()
    }

    /// Minus the integer.
    pub fn neg(&self) -> Int {
        match &self.0 {
            Repr::Small(i) => Int::new(-i128::from(*i)),
            Repr::Big(text) => match text.strip_prefix('-') {
                Some(digits) => Int::decimal(false, digits),
                None => Int::decimal(true, text),
            },
        }
    }

    /// The integer after this one.
    pub fn succ(&self) -> Int {
        match &self.0 {
            Repr::Small(i) => Int::new(i128::from(*i) + 1),
            Repr::Big(text) => match text.strip_prefix('-') {
                Some(digits) => Int::decimal(true, &step(digits, false)),
                None => Int::decimal(false, &step(text, true)),
            },
        }
    }
}

/// A limb of [`rebase`]'s decimal output: nine digits.
const DECIMAL_LIMB: u32 = 1_000_000_000;

/// The number whose digits in base `from` are `digits` (the highest first),
/// as limbs in base `to`, the lowest first: schoolbook, as the numbers are a
/// few hundred digits at most.
fn rebase(digits: impl Iterator<Item = u32>, from: u32, to: u32) -> Vec<u32> {
    let mut limbs: Vec<u32> = Vec::new();
    for digit in digits {
        let mut carry = u64::from(digit);
        for limb in &mut limbs {
            let v = u64::from(*limb) * u64::from(from) + carry;
            *limb = (v % u64::from(to)) as u32;
            carry = v / u64::from(to);
        }
        while carry > 0 {
            limbs.push((carry % u64::from(to)) as u32);
            carry /= u64::from(to);
        }
    }
    limbs
}

/// Decimal `digits` plus one (`up`) or minus one; never below zero.
fn step(digits: &str, up: bool) -> String {
    let mut bytes = digits.as_bytes().to_vec();
    let (edge, back, towards) = if up { (b'9', b'0', 1i8) } else { (b'0', b'9', -1i8) };
    for b in bytes.iter_mut().rev() {
        if *b == edge {
            *b = back;
        } else {
            *b = b.wrapping_add_signed(towards);
            return String::from_utf8_lossy(&bytes).into_owned();
        }
    }
    format!("1{}", String::from_utf8_lossy(&bytes))
}

impl Ord for Int {
    fn cmp(&self, other: &Int) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.cmp(b),
            // A big one lies beyond every small one, on its side of zero.
            (Repr::Small(_), Repr::Big(b)) => {
                if b.starts_with('-') {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (Repr::Big(a), Repr::Small(_)) => {
                if a.starts_with('-') {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (Repr::Big(a), Repr::Big(b)) => match (a.strip_prefix('-'), b.strip_prefix('-')) {
                (None, None) => (a.len(), a).cmp(&(b.len(), b)),
                (Some(a), Some(b)) => (b.len(), b).cmp(&(a.len(), a)),
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
            },
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Int) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Into<i128>> From<T> for Int {
    fn from(i: T) -> Int {
        Int::new(i.into())
    }
}

impl std::fmt::Debug for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl std::fmt::Display for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Repr::Small(i) => i.fmt(f),
            Repr::Big(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use num_traits::{FromPrimitive, One};

    /// Integers around the edges: 0, the i64 and i128 bounds, powers of two
    /// and ten, and a few hundred digits, each with its sign flipped.
    fn samples() -> Vec<BigInt> {
        let mut out = vec![BigInt::from(0), BigInt::from(1), BigInt::from(9)];
        for bits in [62u32, 63, 64, 65, 127, 128, 129, 200, 1000] {
            let p = BigInt::one() << bits;
            out.extend([p.clone() - 1, p.clone(), p + 1]);
        }
        for digits in [18usize, 19, 20, 38, 39, 40, 100, 400] {
            let nines: BigInt = "9".repeat(digits).parse().unwrap();
            out.extend([nines.clone(), nines + 1]);
        }
        out.push("123456789012345678901234567890123456789012345678901234567890".parse().unwrap());
        let negatives: Vec<BigInt> = out.iter().map(|b| -b).collect();
        out.extend(negatives);
        out
    }

    fn int(b: &BigInt) -> Int {
        let digits = b.magnitude().to_str_radix(10);
        let i = Int::from_digits(&digits, 10).unwrap();
        if b.sign() == num_bigint::Sign::Minus {
            i.neg()
        } else {
            i
        }
    }

    #[test]
    fn reads_prints_and_steps_as_num_bigint_does() {
        for b in samples() {
            let i = int(&b);
            assert_eq!(i.to_string(), b.to_string());
            assert_eq!(format!("{i:?}"), b.to_string());
            for radix in [2, 8, 16] {
                let read = Int::from_digits(&b.magnitude().to_str_radix(radix), radix).unwrap();
                assert_eq!(read.to_string(), b.magnitude().to_string(), "{b} in base {radix}");
            }
            assert_eq!(i.neg().to_string(), (-&b).to_string());
            assert_eq!(i.succ().to_string(), (&b + BigInt::one()).to_string(), "{b} + 1");
            assert_eq!(i.to_i128(), num_traits::ToPrimitive::to_i128(&b));
            assert_eq!(i.to_f64(), num_traits::ToPrimitive::to_f64(&b).unwrap());
            let bits: String = i.magnitude_bits().iter().rev().map(|&b| if b { '1' } else { '0' }).collect();
            let want = b.magnitude().to_str_radix(2);
            assert_eq!(bits, if want == "0" { String::new() } else { want });
        }
    }

    #[test]
    fn orders_as_num_bigint_does_and_holds_one_form_a_value() {
        let all = samples();
        for a in &all {
            for b in &all {
                assert_eq!(int(a).cmp(&int(b)), a.cmp(b), "{a} <=> {b}");
                assert_eq!(int(a) == int(b), a == b);
            }
        }
        assert_eq!(Int::from_digits("0009223372036854775807", 10), Some(Int::small(i64::MAX)));
        assert_eq!(Int::new(i64::MAX as i128).succ().neg().succ().neg(), Int::small(i64::MAX));
        assert_eq!(Int::from_digits("-1", 10), None);
        assert_eq!(Int::from_digits("19", 8), None);
        assert_eq!(Int::from_decimal("-0"), Some(Int::ZERO));
        assert_eq!(Int::from_decimal("+12"), Some(Int::small(12)));
        assert_eq!(Int::from_decimal("1-2"), None);
        assert_eq!(Int::from_decimal("-"), None);
    }

    #[test]
    fn a_float_becomes_the_integer_ruby_makes_of_it() {
        for f in [1e100, -1e100, 1.5e300, 9.3e18, -9.3e18, 123.9, -2.9, 0.0, -0.0, 1e19] {
            assert_eq!(Int::from_f64(f).unwrap().to_string(), BigInt::from_f64(f.trunc()).unwrap().to_string());
        }
        assert_eq!(Int::from_f64(f64::NAN), None);
        assert_eq!(Int::from_f64(f64::INFINITY), None);
    }
}

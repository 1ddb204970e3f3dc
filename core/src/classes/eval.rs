//! Default expressions evaluated as Puppet's evaluator does, for what they
//! mostly hold: literals, the class's earlier parameters, facts and other
//! top-scope variables, accesses, strings with interpolation, collections
//! and integer arithmetic. Anything else (a function call, a selector, a
//! variable of another class) is left to Puppet's compiler.

use super::find::Defined;
use super::{Bound, Failure, From, Parameter};
use crate::manifests::{Expr, Piece};
use crate::value::{Hash, Value};
use crate::Hiera;

/// What a default evaluates to.
pub enum Evaluated {
    /// A value.
    Value(Value),
    /// Not evaluated here.
    Unevaluated,
    /// Puppet's compile error.
    Failed(Failure),
}

/// Why evaluation stopped.
enum Stop {
    Unevaluated,
    Failed(Failure),
}

/// Evaluates `expr`, the default of the parameter after `before`; `after`
/// are the parameters after it, which it may see only where Hiera gave them.
pub fn default(hiera: &Hiera, defined: &Defined, before: &[Parameter], after: &[Parameter], expr: &Expr) -> Evaluated {
    let scope = Scope { hiera, defined, before, after };
    match scope.eval(expr) {
        Ok(v) => Evaluated::Value(v),
        Err(Stop::Unevaluated) => Evaluated::Unevaluated,
        Err(Stop::Failed(e)) => Evaluated::Failed(e),
    }
}

struct Scope<'a> {
    hiera: &'a Hiera,
    defined: &'a Defined,
    before: &'a [Parameter],
    after: &'a [Parameter],
}

impl Scope<'_> {
    fn eval(&self, expr: &Expr) -> Result<Value, Stop> {
        Ok(match expr {
            Expr::Undef => Value::Undef,
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Number(n) => number(n).ok_or(Stop::Unevaluated)?,
            Expr::Str(s) => Value::String(s.clone()),
            Expr::Interpolated(pieces) => {
                let mut out = String::new();
                for piece in pieces {
                    match piece {
                        Piece::Text(t) => out.push_str(t),
                        Piece::Expr(e) => out.push_str(&interpolated(&self.eval(e)?)),
                    }
                }
                Value::String(out)
            }
            Expr::Var(name, at) => self.variable(name, *at)?,
            Expr::Access(target, keys) => {
                let mut v = self.eval(target)?;
                for key in keys {
                    let key = self.eval(key)?;
                    v = match (&v, &key) {
                        (Value::Hash(h), k) => h.get(k).cloned().unwrap_or(Value::Undef),
                        (Value::Array(a), Value::Integer(i)) => {
                            let i = i.to_i128().ok_or(Stop::Unevaluated)?;
                            let len = a.len() as i128;
                            let at = if i < 0 { len + i } else { i };
                            usize::try_from(at).ok().and_then(|at| a.get(at)).cloned().unwrap_or(Value::Undef)
                        }
                        _ => return Err(Stop::Unevaluated),
                    };
                }
                v
            }
            Expr::Array(items) => {
                Value::Array(items.iter().map(|e| self.eval(e)).collect::<Result<Vec<_>, _>>()?.into())
            }
            Expr::Hash(entries) => {
                let mut h = Hash::default();
                for (k, v) in entries {
                    let k = self.eval(k)?;
                    let v = self.eval(v)?;
                    h.insert(k, v);
                }
                Value::Hash(h)
            }
            Expr::Arith(op, a, b) => arith(*op, &self.eval(a)?, &self.eval(b)?).ok_or(Stop::Unevaluated)?,
            Expr::Neg(a) => match self.eval(a)? {
                Value::Integer(i) => Value::Integer(i.neg()),
                Value::Float(f) => Value::Float(-f),
                _ => return Err(Stop::Unevaluated),
            },
            Expr::Other => return Err(Stop::Unevaluated),
        })
    }

    /// A variable as the class's parameter scope sees it: its earlier
    /// parameters, `$name` and `$title`, `$module_name`, then the top scope.
    fn variable(&self, name: &str, at: (usize, usize)) -> Result<Value, Stop> {
        let class = &self.defined.header.name;
        let local = match name.rsplit_once("::") {
            Some((scope, var)) if scope == class || scope == format!("::{class}") => Some(var),
            Some(_) => None,
            None => Some(name),
        };
        if let Some(var) = local {
            let given = |p: &&Parameter| p.name == var && p.from == From::Hiera;
            if let Some(p) = self.before.iter().find(|p| p.name == var).or_else(|| self.after.iter().find(given)) {
                return match &p.value {
                    Bound::Value(v) => Ok(v.clone()),
                    Bound::Missing => Ok(Value::Undef),
                    Bound::Unevaluated(_) => Err(Stop::Unevaluated),
                };
            }
            if self.after.iter().any(|p| p.name == var) {
                let current = self.after.first().map_or("", |p| p.name.as_str());
                return Err(Stop::Failed(Failure::Include(format!(
                    "{}: default expression for ${current} tries to illegally access not yet evaluated ${var}",
                    super::resource_name(class)
                ))));
            }
            match var {
                "name" | "title" => return Ok(Value::String(class.clone())),
                "module_name" => return Ok(Value::String(class.split("::").next().unwrap_or_default().to_string())),
                _ => {}
            }
        }
        let top = match name.strip_prefix("::") {
            Some(top) if !top.contains("::") => top,
            None if !name.contains("::") => name,
            // A variable of another class: only Puppet evaluates that class.
            _ => return Err(Stop::Unevaluated),
        };
        match self.hiera.scope.get(top) {
            Some(v) => Ok(v),
            // Puppet 8's `strict = error` (or puppet.conf's) refuses what
            // Puppet 7 warns of and reads as undef.
            None if self.hiera.strict_error => {
                let (line, column) = at;
                Err(Stop::Failed(Failure::Plain(format!(
                    "Evaluation Error: Unknown variable: '{name}'. (file: {}, line: {line}, column: {column})",
                    self.defined.file
                ))))
            }
            None => Ok(Value::Undef),
        }
    }
}

/// A value in a string, as the evaluator's `string` makes it: strings as
/// they are, undef as nothing, collections without quotes.
fn interpolated(v: &Value) -> String {
    match v {
        Value::Undef => String::new(),
        Value::Array(a) => format!("[{}]", a.iter().map(interpolated).collect::<Vec<_>>().join(", ")),
        Value::Hash(h) => {
            let entries: Vec<String> =
                h.iter().map(|(k, v)| format!("{} => {}", interpolated(k), interpolated(v))).collect();
            format!("{{{}}}", entries.join(", "))
        }
        v => crate::puppet::convert::to_puppet_string(v),
    }
}

/// A number as Puppet reads it: decimal, `0x` hex, `0` octal, or a float.
fn number(text: &str) -> Option<Value> {
    let int = if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        i64::from_str_radix(hex, 16).ok()
    } else if text.len() > 1 && text.starts_with('0') && text.bytes().all(|b| b.is_ascii_digit()) {
        i64::from_str_radix(&text[1..], 8).ok()
    } else {
        text.parse::<i64>().ok()
    };
    match int {
        Some(i) => Some(Value::Integer(i.into())),
        None => text.parse::<f64>().ok().filter(|f| f.is_finite()).map(Value::Float),
    }
}

/// Integer and float arithmetic; `None` for what Puppet does otherwise
/// (string concatenation fails, arrays and hashes merge or append).
fn arith(op: char, a: &Value, b: &Value) -> Option<Value> {
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => {
            let (x, y) = (x.to_i128()?, y.to_i128()?);
            let r = match op {
                '+' => x.checked_add(y),
                '-' => x.checked_sub(y),
                '*' => x.checked_mul(y),
                // Ruby's integer division and modulo round towards minus infinity.
                '/' if y != 0 => Some(x.div_euclid(y) - i128::from(x.rem_euclid(y) != 0 && y < 0)),
                '%' if y != 0 => Some(x - y * (x.div_euclid(y) - i128::from(x.rem_euclid(y) != 0 && y < 0))),
                _ => None,
            }?;
            Some(Value::Integer(i64::try_from(r).ok()?.into()))
        }
        (Value::Integer(_) | Value::Float(_), Value::Integer(_) | Value::Float(_)) => {
            let f = |v: &Value| match v {
                Value::Integer(i) => i.to_f64(),
                Value::Float(f) => *f,
                _ => 0.0,
            };
            let (x, y) = (f(a), f(b));
            let r = match op {
                '+' => x + y,
                '-' => x - y,
                '*' => x * y,
                '/' if y != 0.0 => x / y,
                _ => return None,
            };
            Some(Value::Float(r))
        }
        _ => None,
    }
}

//! Hash's `new` with a build option: `convert_to: [Hash, tree]` or
//! `[Hash, hash_tree]` builds a hash from `[path, value]` pairs, as
//! Puppet's `new_hash` does it (its `from_tree`), Ruby's errors included.

use super::string::{shown, type_name};
use crate::formats::yaml::MAX_DEPTH;
use crate::value::{ruby_float, Hash, Int, Value};

/// The signatures Puppet's dispatcher lists when it takes none.
const SIGNATURES: [&str; 3] = [
    "(TreeArray = Array[Tuple[Array, Any], 1] from, NewHashOption = Enum['hash_tree', 'tree'] build_option?)",
    "(KeyValueArray = Array[Tuple[Any, Any], 1] from)",
    "(Any from)",
];

/// `new_hash(from, build_option)`: a hash built from the tree `from`, or
/// the dispatcher's refusal when `from` is no tree or the option is not
/// `tree` or `hash_tree`.
pub(super) fn from_tree(from: Value, option: &Value) -> Result<Value, String> {
    let mut refused = tree_refusals(&from);
    let all_hashes = match option {
        Value::String(o) if o == "tree" => false,
        Value::String(o) if o == "hash_tree" => true,
        other => {
            // A `from` that does not fit is all the dispatcher reports.
            if refused.is_empty() {
                refused.push(format!(
                    "parameter 'build_option' expects a match for NewHashOption = Enum['hash_tree', 'tree'], got {}",
                    shown(other)
                ));
            }
            true
        }
    };
    let pairs = match &from {
        Value::Array(pairs) if refused.is_empty() => pairs,
        _ => return Err(dispatch_refusal(&refused)),
    };
    let mut result = Value::Hash(Hash::default());
    for pair in pairs.iter() {
        let Value::Array(pair) = pair else { continue };
        let [Value::Array(path), value] = &pair[..] else { continue };
        match path.split_last() {
            None => merge_into_root(&mut result, value)?,
            // Each step is a level of the hash built; past the levels a YAML
            // document may have, the engine stops (Ruby goes on, and fails
            // later, rendering or inspecting it).
            Some(_) if path.len() > MAX_DEPTH => {
                return Err(format!("a tree path of {} steps is deeper than {MAX_DEPTH} levels", path.len()));
            }
            Some((last, steps)) => {
                let value = if all_hashes { array_as_hash(value.clone()) } else { value.clone() };
                assign(&mut result, steps, last, value)?;
            }
        }
    }
    Ok(result)
}

/// The dispatcher's message: every signature, with why the first does not
/// take the arguments and the others take one argument only.
fn dispatch_refusal(refused: &[String]) -> String {
    let one_argument = "\n    rejected: expects 1 argument, got 2";
    format!(
        "The function 'new_hash' was called with arguments it does not accept. It expects one of:\n  {}{}\n  {}{one_argument}\n  {}{one_argument}",
        SIGNATURES[0],
        refused.iter().map(|r| format!("\n    rejected: {r}")).collect::<String>(),
        SIGNATURES[1],
        SIGNATURES[2],
    )
}

/// Why `from` is not a `TreeArray` (`Array[Tuple[Array, Any], 1]`), as the
/// dispatcher words it; empty when it is one.
fn tree_refusals(from: &Value) -> Vec<String> {
    let Value::Array(pairs) = from else {
        return vec![format!(
            "parameter 'from' expects a TreeArray = Array[Tuple[Array, Any], 1] value, got {}",
            type_name(from)
        )];
    };
    if pairs.is_empty() {
        return vec!["parameter 'from' expects size to be at least 1, got 0".into()];
    }
    pairs
        .iter()
        .enumerate()
        .filter_map(|(i, pair)| match pair {
            Value::Array(p) if p.len() != 2 => {
                Some(format!("parameter 'from' index {i} expects size to be 2, got {}", p.len()))
            }
            Value::Array(p) if !matches!(p[0], Value::Array(_)) => {
                Some(format!("parameter 'from' index {i} index 0 expects an Array value, got {}", type_name(&p[0])))
            }
            Value::Array(_) => None,
            other => Some(format!("parameter 'from' index {i} expects a Tuple value, got {}", type_name(other))),
        })
        .collect()
}

/// A value for an empty path: an array's elements under their indexes, a
/// hash's entries merged in.
fn merge_into_root(result: &mut Value, value: &Value) -> Result<(), String> {
    let Value::Hash(root) = result else { return Ok(()) };
    match value {
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                root.insert(index(i), v.clone());
            }
        }
        Value::Hash(h) => {
            for (k, v) in h.iter() {
                root.insert(k.clone(), v.clone());
            }
        }
        other => return Err(format!("no implicit conversion of {} into Hash", implicit_name(other))),
    }
    Ok(())
}

/// Puppet's `reduce` down `steps` (a hash gets an empty hash for a key it
/// lacks, an array is indexed), then `r[last] = value` where it lands. A
/// loop, not recursion: a path is as long as the data makes it.
fn assign(root: &mut Value, steps: &[Value], last: &Value, value: Value) -> Result<(), String> {
    let mut node = root;
    for (n, step) in steps.iter().enumerate() {
        node = match node {
            Value::Array(a) => {
                let len = a.len();
                match array_index(step, len)? {
                    Some(i) => &mut a[i],
                    // Past the end, Ruby's `memo[idx]` is nil, which no step goes into.
                    None if n + 1 < steps.len() => return Err(no_has_key(&Value::Undef)),
                    None => return set(&mut Value::Undef, last, value),
                }
            }
            Value::Hash(h) => h.get_or_insert_with(step.clone(), || Value::Hash(Hash::default())),
            other => return Err(no_has_key(other)),
        };
    }
    set(node, last, value)
}

/// Ruby's error for a step into what is neither a hash nor an array.
fn no_has_key(memo: &Value) -> String {
    format!("undefined method `has_key?' for {}\n\n{REDUCE_LINE}\n{}^^^^^^^^^", receiver(memo), " ".repeat(82))
}

/// The line of Puppet's `from_tree` that walks a path, as Ruby quotes it.
const REDUCE_LINE: &str = "            r = path[0..-2].reduce(result) {|memo, idx| (memo.is_a?(Array) || memo.has_key?(idx)) ? memo[idx] : memo[idx] = {}}";

/// Ruby's `r[key] = value`.
fn set(r: &mut Value, key: &Value, value: Value) -> Result<(), String> {
    match r {
        Value::Hash(h) => {
            h.insert(key.clone(), value);
        }
        Value::Array(a) => {
            let len = a.len();
            let i = match key {
                Value::Integer(i) => match long(i)? {
                    n if n < 0 && n + (len as i128) < 0 => {
                        return Err(format!("index {i} too small for array; minimum: -{len}"));
                    }
                    n if n < 0 => (n + len as i128) as usize,
                    n => n as usize,
                },
                other => return Err(integer_conversion(other)),
            };
            // Ruby would fill the array with nils up to the index; past a
            // million of them the engine gives up, as Ruby does past memory.
            if i >= len + crate::formats::yaml::MAX_NODES {
                return Err("failed to allocate memory".into());
            }
            if i >= len {
                a.resize(i + 1, Value::Undef);
            }
            a[i] = value;
        }
        Value::String(s) => {
            let Value::String(replacement) = value else {
                return Err(format!("no implicit conversion of {} into String", implicit_name(&value)));
            };
            let chars = s.chars().count() as i128;
            let range = match key {
                Value::Integer(i) => {
                    let n = long(i)?;
                    let at = if n < 0 { n + chars } else { n };
                    if !(0..chars).contains(&at) {
                        return Err(format!("index {i} out of string"));
                    }
                    let (start, c) = s.char_indices().nth(at as usize).unwrap_or((0, ' '));
                    start..start + c.len_utf8()
                }
                Value::String(sub) => match s.find(sub.as_str()) {
                    Some(start) => start..start + sub.len(),
                    None => return Err("string not matched".into()),
                },
                other => return Err(integer_conversion(other)),
            };
            s.replace_range(range, &replacement);
        }
        other => {
            // Ruby suggests the one method with a similar name that the receiver has.
            let hint = if matches!(other, Value::Integer(_)) { "\nDid you mean?  []" } else { "" };
            return Err(format!(
                "undefined method `[]=' for {}\n\n            r[path[-1]]= (all_hashes ? PHashType.array_as_hash(value) : value)\n             ^^^^^^^^^^^{hint}",
                receiver(other)
            ));
        }
    }
    Ok(())
}

/// Where an array index lands, `None` past either end.
fn array_index(key: &Value, len: usize) -> Result<Option<usize>, String> {
    match key {
        Value::Integer(i) => {
            let n = long(i)?;
            let at = if n < 0 { n + len as i128 } else { n };
            Ok(usize::try_from(at).ok().filter(|&at| at < len))
        }
        other => Err(integer_conversion(other)),
    }
}

/// An index as Ruby reads one, into a C long.
fn long(i: &Int) -> Result<i128, String> {
    i.to_i128().filter(|n| i64::try_from(*n).is_ok()).ok_or_else(|| "bignum too big to convert into `long'".into())
}

fn integer_conversion(key: &Value) -> String {
    match key {
        Value::Undef => "no implicit conversion from nil to integer".into(),
        other => format!("no implicit conversion of {} into Integer", implicit_name(other)),
    }
}

/// How Ruby's implicit-conversion errors name a value: `nil`, `true` and
/// `false` by themselves, anything else by its class.
fn implicit_name(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Bool(b) => b.to_string(),
        other => other.ruby_class().into(),
    }
}

/// A receiver as a NoMethodError shows it: `1:Integer`, `nil:NilClass`.
fn receiver(v: &Value) -> String {
    let shown = match v {
        Value::Float(f) => ruby_float(*f),
        other => other.inspect(),
    };
    format!("{shown}:{}", v.ruby_class())
}

/// Puppet's `array_as_hash`: arrays, at every depth, as hashes from index to element.
fn array_as_hash(v: Value) -> Value {
    match v {
        Value::Array(a) => {
            Value::Hash(a.into_vec().into_iter().enumerate().map(|(i, v)| (index(i), array_as_hash(v))).collect())
        }
        v => v,
    }
}

fn index(i: usize) -> Value {
    Value::Integer((i as i64).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(path: Vec<Value>, value: Value) -> Value {
        Value::Array(vec![Value::Array(vec![Value::Array(path.into()), value].into())].into())
    }

    #[test]
    fn a_long_path_and_a_far_index_end_without_exhausting_the_machine() {
        let steps = |n: usize| (0..n).map(|i| Value::from(format!("k{i}"))).collect::<Vec<_>>();
        assert!(from_tree(tree(steps(MAX_DEPTH), Value::from("v")), &Value::from("tree")).is_ok());
        let refused = from_tree(tree(steps(200_000), Value::from("v")), &Value::from("tree"));
        assert_eq!(refused, Err(format!("a tree path of 200000 steps is deeper than {MAX_DEPTH} levels")));
        let far = vec![Value::from("a"), Value::Integer(1_000_000_000_000i64.into())];
        let input = Value::Array(
            vec![
                Value::Array(vec![Value::Array(vec![Value::from("a")].into()), Value::Array(Vec::new().into())].into()),
                Value::Array(vec![Value::Array(far.into()), Value::from("v")].into()),
            ]
            .into(),
        );
        assert_eq!(from_tree(input, &Value::from("tree")), Err("failed to allocate memory".into()));
    }
}

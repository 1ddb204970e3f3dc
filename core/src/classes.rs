//! Classes, bound for the node as `include CLASS` binds them: automatic
//! parameter lookup (`Puppet::Resource::Type#set_resource_parameters`).
//! Each parameter takes the value Hiera gives `<class>::<param>` (merged as
//! `lookup_options` say), else its default, and is checked against its type
//! with Puppet's messages. Manifests are found as Puppet's type loader
//! finds them, type aliases as its loaders do.

mod eval;
mod find;

use crate::puppet::types::{describe_parameters, parse_type_in, Type};
use crate::value::Value;
use crate::Hiera;
use eval::Evaluated;

pub use find::Defined;

/// How `include CLASS` binds a class's parameters for the node.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// The class, as named (lowercase, without a leading `::`).
    pub class: String,
    /// Where it is defined, when it is found.
    pub defined: Option<Defined>,
    /// Its parameters in declaration order, as far as they were bound
    /// before anything failed.
    pub parameters: Vec<Parameter>,
    /// The compile error, as `puppet apply` prints it after `Error: `.
    pub error: Option<String>,
}

impl Binding {
    /// The class as a resource, as Puppet's messages name it (`Class[Profile::Web]`).
    pub fn resource(&self) -> String {
        resource_name(&self.class)
    }
}

/// One parameter as bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    /// Its name, without the `$`.
    pub name: String,
    /// Its type as written (`Array[Stdlib::Host]`), `None` if untyped.
    pub type_text: Option<String>,
    /// Its value.
    pub value: Bound,
    /// Where the value comes from.
    pub from: From,
    /// Why the value does not match the type (Puppet's message for this
    /// parameter: `parameter 'port' expects an Integer value, got String`).
    pub mismatch: Option<String>,
    /// The line of the parameter in its manifest.
    pub line: usize,
}

/// A parameter's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    /// A value.
    Value(Value),
    /// A default expression only Puppet's compiler evaluates, as written.
    Unevaluated(String),
    /// No value (a required parameter without one).
    Missing,
}

/// Where a parameter's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum From {
    /// Hiera: the key `<class>::<param>`.
    Hiera,
    /// The default expression.
    Default,
    /// Nothing: neither Hiera nor a default.
    Nothing,
}

/// What stopped a class's binding.
enum Failure {
    /// Raised by `include` (a parameter's type, a default).
    Include(String),
    /// Printed as it is (a lookup's error, an evaluation error with its place).
    Plain(String),
}

/// `Class[Profile::Web]`: each segment capitalised.
fn resource_name(class: &str) -> String {
    // Class names are ASCII (Puppet's grammar), so ASCII case will do.
    let segments: Vec<String> = class
        .split("::")
        .map(|s| {
            let mut s = s.to_string();
            if let Some(first) = s.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            s
        })
        .collect();
    format!("Class[{}]", segments.join("::"))
}

impl Hiera {
    /// Every class the environment's modules define where Puppet's loader
    /// finds it, module by module in modulepath order, each module's in
    /// file order.
    pub fn classes(&self) -> Vec<Defined> {
        find::all_classes(self)
    }

    /// Binds `class`'s parameters as `include CLASS` does for the node:
    /// each from Hiera, else from its default, then checked against its type.
    pub fn bind_class(&self, class: &str) -> Binding {
        self.bind_in(&mut self.session(), &find::Modules::new(self), class)
    }

    /// Binds each class as [`Hiera::bind_class`] does, sharing one
    /// session's resolved hierarchies and `lookup_options` between them,
    /// as one catalog compile does.
    pub fn bind_classes<'a>(&self, classes: impl IntoIterator<Item = &'a str>) -> Vec<Binding> {
        let (mut session, modules) = (self.session(), find::Modules::new(self));
        classes.into_iter().map(|c| self.bind_in(&mut session, &modules, c)).collect()
    }

    fn bind_in(&self, session: &mut crate::Session<'_>, modules: &find::Modules<'_>, class: &str) -> Binding {
        let class = class.trim_start_matches("::").to_string();
        let node = self.node().name.clone();
        let on_node = |message: String| format!("{message} on node {node}");
        // `include` is at line 1, column 1 of the main manifest.
        let in_include = |message: String| {
            on_node(format!("Evaluation Error: Error while evaluating a Function Call, {message} (line: 1, column: 1)"))
        };
        let mut binding = Binding { class: class.clone(), defined: None, parameters: Vec::new(), error: None };
        let mut seen = Vec::new();
        let mut name = class.clone();
        // `inherits`: the parents are bound first.
        let mut chain = Vec::new();
        loop {
            let defined = match modules.class(&name) {
                Ok(Some(defined)) => defined,
                Ok(None) if name == class => {
                    binding.error = Some(in_include(format!("Could not find class ::{class} for {node}")));
                    return binding;
                }
                Ok(None) => {
                    // Said of the class that inherits, at its line.
                    let child = chain.last().map(|c: &Defined| (c.file.clone(), c.header.line)).unwrap_or_default();
                    binding.error = Some(on_node(format!(
                        "Could not find parent resource type '::{name}' of type hostclass in {} (file: {}, line: {})",
                        self.node().environment,
                        child.0,
                        child.1
                    )));
                    return binding;
                }
                Err(e) => {
                    binding.error = Some(on_node(e));
                    return binding;
                }
            };
            seen.push(name.clone());
            let parent = defined.header.inherits.clone();
            chain.push(defined);
            match parent {
                Some(p) if !seen.contains(&p) => name = p,
                _ => break,
            }
        }
        let mut chain = chain.into_iter().rev().peekable();
        while let Some(defined) = chain.next() {
            let last = chain.peek().is_none();
            let (parameters, error) = self.bind_one(session, modules, &defined);
            if last {
                binding.defined = Some(defined);
                binding.parameters = parameters;
            }
            if let Some(e) = error {
                binding.error = Some(match e {
                    Failure::Include(e) => in_include(e),
                    Failure::Plain(e) => on_node(e),
                });
                return binding;
            }
        }
        binding
    }

    /// One class's parameters, and the error that stops the compile.
    fn bind_one(
        &self,
        session: &mut crate::Session<'_>,
        modules: &find::Modules<'_>,
        defined: &Defined,
    ) -> (Vec<Parameter>, Option<Failure>) {
        let class = &defined.header;
        let subject = resource_name(&class.name);
        let mut parameters = Vec::new();
        // From Hiera first, every parameter, as `inject_external_parameters` does.
        for param in &class.params {
            let key = format!("{}::{}", class.name, param.name);
            let found = match session.lookup(&key) {
                Ok(found) => found,
                // Puppet prints a lookup's error as it is, not as the include's.
                Err(e) => return (parameters, Some(Failure::Plain(e.into_message()))),
            };
            let (value, from) = match found {
                // An undef from Hiera does not override a default.
                Some(Value::Undef) if param.default.is_some() => (Bound::Missing, From::Nothing),
                Some(v) => (Bound::Value(v), From::Hiera),
                None => (Bound::Missing, From::Nothing),
            };
            parameters.push(Parameter {
                name: param.name.clone(),
                type_text: param.type_text.clone(),
                value,
                from,
                mismatch: None,
                line: param.line,
            });
        }
        // Then the defaults, in order, each seeing the parameters before it.
        for (i, param) in class.params.iter().enumerate() {
            let Some(default) = &param.default else { continue };
            if parameters[i].from == From::Hiera {
                continue;
            }
            let (before, after) = parameters.split_at(i);
            let evaluated = eval::default(self, defined, before, after, &default.expr);
            parameters[i].from = From::Default;
            parameters[i].value = match evaluated {
                Evaluated::Value(v) => Bound::Value(v),
                Evaluated::Unevaluated => Bound::Unevaluated(default.source.clone()),
                Evaluated::Failed(e) => return (parameters, Some(e)),
            };
        }
        let aliases = |name: &str| modules.alias(name, 0);
        let checked: Vec<(String, Type, Option<Value>, bool)> = parameters
            .iter()
            .zip(&class.params)
            .filter(|(p, _)| !matches!(p.value, Bound::Unevaluated(_)))
            .map(|(p, declared)| {
                let t = declared.type_text.as_deref().map_or(Type::Any, |text| {
                    parse_type_in(text, &aliases).unwrap_or_else(|_| Type::Reference(text.to_string()))
                });
                let value = match &p.value {
                    Bound::Value(v) => Some(v.clone()),
                    _ => None,
                };
                (p.name.clone(), t, value, declared.default.is_some())
            })
            .collect();
        let described = describe_parameters(&checked);
        for (name, line) in &described.per_parameter {
            if let Some(p) = parameters.iter_mut().find(|p| &p.name == name) {
                p.mismatch = Some(line.trim().to_string());
            }
        }
        let error = match described.lines.as_slice() {
            [] => None,
            [one] => Some(Failure::Include(format!("{subject}:{one}"))),
            all => Some(Failure::Include(format!("{subject}:\n {}", all.join("\n ")))),
        };
        (parameters, error)
    }
}

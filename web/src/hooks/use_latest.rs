use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

/// Keeps `value` in a cell refreshed on every render, for callbacks created once
/// (such as those handed to JavaScript) that must still see the latest props.
#[hook]
pub fn use_latest<T: 'static>(value: T) -> Rc<RefCell<T>> {
    let mut value = Some(value);
    let cell = use_mut_ref(|| value.take().expect("taken only on the first render"));
    if let Some(value) = value {
        *cell.borrow_mut() = value;
    }
    cell
}

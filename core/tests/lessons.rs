//! The tour's lessons (`www/lessons/`): each one's checks fail as the lesson
//! starts and pass once its solution is written in, and every answer in it
//! is Puppet's: the lesson's own lookups as recorded (the lesson's document
//! is a conformance case), and each answer its checks expect as Puppet gave
//! it for the solution (`tests/conformance/lessons/*-solved.yaml`, written
//! by `scripts/lesson-cases` and recorded by the oracle).

use std::path::PathBuf;

use hiera_core::case::{Document, Expect};
use hiera_core::lesson::{Check, Lesson};
use hiera_core::playground::Playground;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn every_lesson_starts_failing_its_checks_and_its_solution_passes_them_as_puppet_answers() {
    let index = std::fs::read_to_string(root().join("www/lessons/index.txt")).unwrap();
    let names: Vec<&str> = index.split_whitespace().collect();
    assert!(names.len() >= 7, "{names:?}");
    for name in names {
        let text = std::fs::read_to_string(root().join("www/lessons").join(name)).unwrap();
        let (start, lesson) = Lesson::from_yaml(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!lesson.title.is_empty() && !lesson.task.is_empty() && !lesson.hints.is_empty(), "{name}");
        assert!(lesson.checks.iter().any(|c| matches!(c, Check::Answer(_))), "{name}: no answer to check");
        // The lesson's lookups, as Puppet answered them at the start.
        assert!(start.lookups.iter().all(|l| l.expect.is_some()), "{name}: record it with the oracle");
        for (i, result) in start.check(true).into_iter().enumerate() {
            assert!(result.is_ok(), "{name}#{i}: {}", result.unwrap_err());
        }
        let begun = lesson.check(&start, &Playground::new(start.clone()));
        assert!(begun.iter().any(|c| !c.passed), "{name}: the task is done before it starts: {begun:?}");
        let solved = lesson.solved(&start);
        let done = lesson.check(&start, &Playground::new(solved.clone()));
        assert!(done.iter().all(|c| c.passed), "{name}: the solution fails: {done:?}");
        // What each answer check expects is what Puppet answered for the solution.
        let recorded = root().join("tests/conformance/lessons").join(name.replace(".yaml", "-solved.yaml"));
        let recorded = Document::from_yaml(&std::fs::read_to_string(&recorded).unwrap()).unwrap();
        assert_eq!(recorded.files, solved.files, "{name}: run scripts/lesson-cases and the oracle again");
        let expected: Vec<&Expect> = lesson
            .checks
            .iter()
            .filter_map(|c| match c {
                Check::Answer(l) => l.expect.as_ref(),
                _ => None,
            })
            .collect();
        let puppet: Vec<&Expect> = recorded.lookups.iter().map(|l| l.expect.as_ref().expect("recorded")).collect();
        assert_eq!(expected, puppet, "{name}: the checks expect what Puppet did not answer");
    }
}

#[test]
fn a_lesson_says_what_is_wrong_with_it() {
    let e = Lesson::from_yaml("files: {}\n").unwrap_err();
    assert_eq!(e.to_string(), "lesson: the document has no 'lesson' mapping");
    let e = Lesson::from_yaml("lesson:\n  checks:\n    - answer: {key: k}\n").unwrap_err();
    assert_eq!(e.to_string(), "lesson: an answer check needs its 'expect'");
    let e = Lesson::from_yaml("lesson:\n  checks:\n    - bogus: 1\n").unwrap_err();
    assert!(e.to_string().starts_with("lesson: a check is"), "{e}");
}

//! Adding and removing one entry of a JSON settings file so that the two are exact inverses,
//! byte for byte, whatever the user writes around the entry in between: what lets uninstall
//! take our entries out of a file as it is now and leave every change of the user's.
//!
//! `jsonc-parser`'s own edits are nearly that, but not quite: appending to a one-line object
//! breaks every property onto its own line, and removing an entry also takes the line break
//! after it. Both are done here on the text instead, and the tree parsed again.

use jsonc_parser::cst::{CstInputValue, CstNode, CstObject};

use super::{is_added, parse_root, Added, Settings};

impl Settings {
    /// Removes the object `key` under the objects `parents` when it is empty and install added
    /// it.
    pub(super) fn remove_if_empty(&self, parents: &[&str], key: &str, added: Added) {
        let Some(prop) = self.object_at(parents).and_then(|o| o.get(key)) else { return };
        let empty = match prop.value() {
            Some(CstNode::Container(jsonc_parser::cst::CstContainerNode::Object(o))) => {
                o.properties().is_empty()
            }
            Some(CstNode::Container(jsonc_parser::cst::CstContainerNode::Array(a))) => {
                a.elements().is_empty()
            }
            _ => false,
        };
        let mut path = parents.to_vec();
        path.push(key);
        if empty && is_added(added, &path.join("/")) {
            self.remove_node(prop.into());
        }
    }

    /// Removes `node`, an element of an array or a property of an object, with the separator
    /// install wrote with it and nothing else. Install appends `,` + line break + indent +
    /// entry (the comma after the element before, or, in a file with trailing commas, the
    /// line + entry + `,`), or puts the entry alone in an empty `{}` or `[]`; this takes out
    /// exactly that, leaving comments and what follows the entry as they are. The text is
    /// edited and parsed again, so every node taken from the tree before is stale afterwards.
    ///
    /// (`jsonc-parser`'s own removal also takes the line break after the entry, and a one-line
    /// array that install made multi-line would keep a line break before its `]`.)
    pub(in crate::platform) fn remove_node(&self, node: CstNode) {
        let start = offset(&node);
        let end = start + node.to_string().len();
        let solid = |n: &CstNode| !n.is_trivia();
        let blank = |n: &CstNode| n.is_whitespace() || n.is_newline();
        let mut text = self.render();
        match (node.previous_siblings().find(solid), node.next_siblings().find(solid)) {
            // Followed by a comma: the entry's line, its comma and the line break after.
            (_, Some(comma)) if comma.is_comma() => {
                let from = node.previous_siblings().take_while(|n| n.is_whitespace()).last();
                let mut to = offset(&comma) + 1;
                for n in comma.next_siblings() {
                    if !blank(&n) {
                        break;
                    }
                    to += n.to_string().len();
                    if n.is_newline() {
                        break;
                    }
                }
                text.replace_range(from.map_or(start, |n| offset(&n))..to, "");
            }
            // After a comma: the comma, and the blanks from the comment or element before.
            (Some(comma), _) if comma.is_comma() => {
                let from = node.previous_siblings().take_while(blank).last();
                text.replace_range(from.map_or(start, |n| offset(&n))..end, "");
                let at = offset(&comma);
                text.replace_range(at..at + 1, "");
            }
            // Alone: everything between the brackets.
            (open, close) => {
                let from = open.map_or(start, |o| offset(&o) + o.to_string().len());
                text.replace_range(from..close.map_or(end, |c| offset(&c)), "");
            }
        }
        let root = parse_root(&text, self.comments).expect("removing an entry keeps it valid");
        *self.root.borrow_mut() = root;
    }

    /// Adds `key` with `value` at the end of the object at `parents` (which must be there),
    /// changing no byte outside it. `jsonc-parser` puts an entry on a line of its own, as
    /// install should, but it also breaks a one-line object up, every property on its own
    /// line, which uninstall could not undo; such an object gets `,` + the line break and
    /// indent `jsonc-parser` chose + the entry after its last property, and keeps its one line.
    /// The tree is then parsed again: nodes taken from it before are stale.
    pub(in crate::platform) fn add_prop(&self, parents: &[&str], key: &str, value: CstInputValue) {
        let old = self.render();
        let Some(object) = self.object_at(parents) else { return };
        object.append(key, value);
        let new = self.render();
        let same = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
        let tail = old[same..].bytes().rev().zip(new[same..].bytes().rev());
        if same + tail.take_while(|(a, b)| a == b).count() >= old.len() {
            return; // only inserted
        }
        let prop = self.object_at(parents).and_then(|o| o.get(key)).expect("appended above");
        let node = CstNode::Container(prop.into());
        let blank = |n: &CstNode| n.is_whitespace() || n.is_newline();
        let lead: Vec<String> =
            node.previous_siblings().take_while(blank).map(|n| n.to_string()).collect();
        let lead: String = lead.into_iter().rev().collect();
        let before = parse_root(&old, self.comments).expect("it parsed before");
        *self.root.borrow_mut() = before;
        let last = self.object_at(parents).and_then(|o| o.properties().last().cloned());
        let last = CstNode::Container(last.expect("a one-line object has a property").into());
        let comma = last.next_siblings().find(|n| !n.is_trivia()).filter(CstNode::is_comma);
        let text = match comma {
            // A trailing comma (a file with comments): ours follows it, with one of its own.
            Some(comma) => {
                let end = offset(&comma) + 1;
                format!("{}{lead}{node},{}", &old[..end], &old[end..])
            }
            None => {
                let end = offset(&last) + last.to_string().len();
                format!("{},{lead}{node}{}", &old[..end], &old[end..])
            }
        };
        let root = parse_root(&text, self.comments).expect("a property added keeps it valid");
        *self.root.borrow_mut() = root;
    }

    /// The object at the key path `parents` from the top.
    pub(super) fn object_at(&self, parents: &[&str]) -> Option<CstObject> {
        let mut object = Some(self.object());
        for p in parents {
            object = object.and_then(|o| o.object_value(p));
        }
        object
    }
}

/// Where `node` starts in the rendered text.
fn offset(node: &CstNode) -> usize {
    let mut at = 0;
    let mut current = node.clone();
    loop {
        at += current.previous_siblings().map(|s| s.to_string().len()).sum::<usize>();
        match current.parent() {
            Some(parent) => current = CstNode::Container(parent),
            None => return at,
        }
    }
}

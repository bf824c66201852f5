//! Heat's function tables per template version (heat-semantics §1.4):
//! which name is a function in which dialect, and which of Heat's classes
//! implements it there (heat/engine/hot/template.py, cfn/template.py).
//!
//! The validate rules read the same tables (`validate::hot::functions`,
//! `unsupported_function`), so there is one copy of them.

use super::Dialect;

// The version list lives with the template model.
pub(crate) use crate::model::template::hot_date;

/// (function, first version, last version) for every HOT function. A
/// function past its last version is Heat's `Removed` (it stays in the
/// table and fails validation); before its first version, or with the
/// `"0"` bounds (CFN-only names), it is no function at all: plain data.
pub(crate) const FUNCTIONS: [(&str, &str, &str); 34] = [
    ("get_param", "2013-05-23", "9999"),
    ("get_resource", "2013-05-23", "9999"),
    ("get_attr", "2013-05-23", "9999"),
    ("list_join", "2013-05-23", "9999"),
    ("str_replace", "2013-05-23", "9999"),
    ("resource_facade", "2013-05-23", "9999"),
    ("get_file", "2013-05-23", "9999"),
    ("Fn::GetAZs", "2013-05-23", "2013-05-23"),
    ("Ref", "2013-05-23", "2013-05-23"),
    ("Fn::Join", "2013-05-23", "2013-05-23"),
    ("Fn::Split", "2013-05-23", "2013-05-23"),
    ("Fn::Replace", "2013-05-23", "2013-05-23"),
    ("Fn::Base64", "2013-05-23", "2013-05-23"),
    ("Fn::MemberListToMap", "2013-05-23", "2013-05-23"),
    ("Fn::ResourceFacade", "2013-05-23", "2013-05-23"),
    ("Fn::Select", "2013-05-23", "2015-04-30"),
    ("Fn::GetAtt", "0", "0"),
    ("Fn::FindInMap", "0", "0"),
    ("repeat", "2015-04-30", "9999"),
    ("digest", "2015-04-30", "9999"),
    ("str_split", "2015-10-15", "9999"),
    ("map_merge", "2016-04-08", "9999"),
    ("yaql", "2016-10-14", "9999"),
    ("map_replace", "2016-10-14", "9999"),
    ("if", "2016-10-14", "9999"),
    ("filter", "2017-02-24", "9999"),
    ("str_replace_strict", "2017-02-24", "9999"),
    ("make_url", "2017-09-01", "9999"),
    ("list_concat", "2017-09-01", "9999"),
    ("list_concat_unique", "2017-09-01", "9999"),
    ("str_replace_vstrict", "2017-09-01", "9999"),
    ("contains", "2017-09-01", "9999"),
    ("Fn::If", "0", "0"),
    ("Fn::Equals", "0", "0"),
];

/// CFN 2010-09-09's functions (HeatTemplateFormatVersion lacks `Fn::If`).
pub(crate) const CFN_FUNCTIONS: [&str; 12] = [
    "Fn::FindInMap",
    "Fn::GetAZs",
    "Ref",
    "Fn::GetAtt",
    "Fn::Select",
    "Fn::Join",
    "Fn::Split",
    "Fn::Replace",
    "Fn::Base64",
    "Fn::MemberListToMap",
    "Fn::ResourceFacade",
    "Fn::If",
];

/// CFN 2010-09-09's condition functions (AWSTemplateFormatVersion only).
pub(crate) const CFN_CONDITIONS: [&str; 6] = [
    "Fn::Equals",
    "Ref",
    "Fn::FindInMap",
    "Fn::Not",
    "Fn::And",
    "Fn::Or",
];

/// HOT's condition functions, with the version that brought each.
const HOT_CONDITIONS: [(&str, &str); 7] = [
    ("get_param", "2016-10-14"),
    ("equals", "2016-10-14"),
    ("not", "2016-10-14"),
    ("and", "2016-10-14"),
    ("or", "2016-10-14"),
    ("yaql", "2017-09-01"),
    ("contains", "2017-09-01"),
];

/// Which table a snippet is parsed with (Heat's `parse` or
/// `parse_condition`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Table {
    /// The template's functions (properties, outputs, `if` branches).
    Functions,
    /// The condition functions (`conditions`, `condition` keys, the first
    /// argument of `if`).
    Conditions,
}

/// The Heat class that implements a function name in a dialect. Classes
/// that only differ by name (`Fn::Join` is `list_join`'s `Join`) share a
/// variant; the name goes into messages separately.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    GetParam,
    GetResource,
    /// CFN's `Ref`: a resource reference when the name is a resource,
    /// otherwise a parameter reference.
    Ref,
    /// CFN's `ParamRef` (`Ref` in CFN conditions).
    ParamRef,
    /// HOT 2013-05-23's `get_attr`.
    GetAttThenSelect,
    /// HOT 2014-10-16 and 2015-04-30's `get_attr`.
    GetAtt,
    /// HOT 2015-10-15+'s `get_attr` (one argument: all attributes).
    GetAttAllAttributes,
    /// CFN's `Fn::GetAtt` (exactly two arguments).
    CfnGetAtt,
    /// `str_replace` before 2015-10-15, and `Fn::Replace` (with CFN's
    /// argument order): `str()` of scalars only.
    Replace,
    CfnReplace,
    /// `str_replace` from 2015-10-15: maps and lists as JSON.
    ReplaceJson,
    ReplaceJsonStrict,
    ReplaceJsonVeryStrict,
    /// One list (`list_join` before 2015-10-15, `Fn::Join`).
    Join,
    /// Several lists, maps and lists as JSON (`list_join` from 2015-10-15).
    JoinMultiple,
    MapMerge,
    MapReplace,
    ResourceFacade,
    CfnResourceFacade,
    GetFile,
    /// `repeat` 2015-04-30: lists only.
    Repeat,
    /// `repeat` 2016-10-14: lists or maps.
    RepeatWithMap,
    /// `repeat` 2017-09-01: `permutations`.
    RepeatWithNestedLoop,
    Digest,
    StrSplit,
    Yaql,
    Equals,
    /// `if`/`Fn::If` with three arguments.
    If,
    /// `if` from 2021-04-16: a missing third argument elides the item.
    IfNullable,
    Not,
    /// `Fn::Not`: a one-item list.
    CfnNot,
    And,
    Or,
    Filter,
    MakeUrl,
    ListConcat,
    ListConcatUnique,
    Contains,
    FindInMap,
    GetAZs,
    Select,
    Split,
    Base64,
    MemberListToMap,
    /// A function this version of HOT removed.
    Removed,
    /// A template function where only condition functions may be.
    Invalid,
}

/// The class `name` is parsed as, or `None` when it is no function there
/// (a one-key mapping that is plain data).
pub(crate) fn lookup(dialect: Dialect, table: Table, name: &str) -> Option<Class> {
    match dialect {
        Dialect::Hot(date) => hot(date, table, name),
        Dialect::Cfn | Dialect::HeatCfn => {
            let aws = dialect == Dialect::Cfn;
            let function = CFN_FUNCTIONS.contains(&name) && (aws || name != "Fn::If");
            match table {
                Table::Functions => function.then(|| cfn_class(name)).flatten(),
                Table::Conditions => {
                    if aws && CFN_CONDITIONS.contains(&name) {
                        Some(match name {
                            "Fn::Equals" => Class::Equals,
                            "Ref" => Class::ParamRef,
                            "Fn::FindInMap" => Class::FindInMap,
                            "Fn::Not" => Class::CfnNot,
                            "Fn::And" => Class::And,
                            _ => Class::Or,
                        })
                    } else {
                        function.then_some(Class::Invalid)
                    }
                }
            }
        }
    }
}

fn cfn_class(name: &str) -> Option<Class> {
    Some(match name {
        "Fn::FindInMap" => Class::FindInMap,
        "Fn::GetAZs" => Class::GetAZs,
        "Ref" => Class::Ref,
        "Fn::GetAtt" => Class::CfnGetAtt,
        "Fn::Select" => Class::Select,
        "Fn::Join" => Class::Join,
        "Fn::Split" => Class::Split,
        "Fn::Replace" => Class::CfnReplace,
        "Fn::Base64" => Class::Base64,
        "Fn::MemberListToMap" => Class::MemberListToMap,
        "Fn::ResourceFacade" => Class::CfnResourceFacade,
        "Fn::If" => Class::If,
        _ => return None,
    })
}

/// HOT: the function table of the version, and for conditions Heat's
/// `_parser_condition_functions` (every template function `Invalid`,
/// except that from 2016-10-14 `Removed` ones stay `Removed`).
fn hot(date: &str, table: Table, name: &str) -> Option<Class> {
    if table == Table::Conditions && date >= "2016-10-14" {
        if let Some((_, since)) = HOT_CONDITIONS.iter().find(|(c, _)| *c == name) {
            if date >= *since {
                return hot_class(date, name);
            }
        }
    }
    let (_, from, to) = FUNCTIONS.iter().find(|(f, _, _)| *f == name)?;
    let in_table = *from != "0" && *from <= date;
    let removed = in_table && date > *to;
    let as_function = || {
        if removed {
            Some(Class::Removed)
        } else if in_table {
            hot_class(date, name)
        } else {
            None
        }
    };
    match table {
        Table::Functions => as_function(),
        Table::Conditions => {
            if removed && date >= "2016-10-14" {
                return Some(Class::Removed);
            }
            in_table.then_some(Class::Invalid)
        }
    }
}

fn hot_class(date: &str, name: &str) -> Option<Class> {
    Some(match name {
        "get_param" => Class::GetParam,
        "get_resource" => Class::GetResource,
        "get_attr" if date < "2014-10-16" => Class::GetAttThenSelect,
        "get_attr" if date < "2015-10-15" => Class::GetAtt,
        "get_attr" => Class::GetAttAllAttributes,
        "list_join" if date < "2015-10-15" => Class::Join,
        "list_join" => Class::JoinMultiple,
        "str_replace" if date < "2015-10-15" => Class::Replace,
        "str_replace" => Class::ReplaceJson,
        "str_replace_strict" => Class::ReplaceJsonStrict,
        "str_replace_vstrict" => Class::ReplaceJsonVeryStrict,
        "resource_facade" => Class::ResourceFacade,
        "get_file" => Class::GetFile,
        "repeat" if date < "2016-10-14" => Class::Repeat,
        "repeat" if date < "2017-09-01" => Class::RepeatWithMap,
        "repeat" => Class::RepeatWithNestedLoop,
        "digest" => Class::Digest,
        "str_split" => Class::StrSplit,
        "map_merge" => Class::MapMerge,
        "yaql" => Class::Yaql,
        "map_replace" => Class::MapReplace,
        "if" if date < "2021-04-16" => Class::If,
        "if" => Class::IfNullable,
        "filter" => Class::Filter,
        "make_url" => Class::MakeUrl,
        "list_concat" => Class::ListConcat,
        "list_concat_unique" => Class::ListConcatUnique,
        "contains" => Class::Contains,
        "equals" => Class::Equals,
        "not" => Class::Not,
        "and" => Class::And,
        "or" => Class::Or,
        // The CFN functions HOT 2013-05-23 (and `Fn::Select` until
        // 2015-04-30) borrows.
        cfn => return cfn_class(cfn),
    })
}

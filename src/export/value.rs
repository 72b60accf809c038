//! A cell of the games table, as every writer (CSV, JSON, Parquet) takes it.

/// A value of [`GameRow::values`](crate::export::GameRow::values): its column's type, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// A [`ColumnType::Text`](crate::export::ColumnType::Text) value.
    Text(Option<&'a str>),
    /// A [`ColumnType::Int64`](crate::export::ColumnType::Int64) or [`ColumnType::Int32`](crate::export::ColumnType::Int32) value.
    Int(Option<i64>),
    /// A [`ColumnType::Bool`](crate::export::ColumnType::Bool) value.
    Bool(Option<bool>),
    /// A [`ColumnType::Date`](crate::export::ColumnType::Date) value: days since 1970-01-01.
    Date(Option<i32>),
}

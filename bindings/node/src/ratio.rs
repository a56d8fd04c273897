//! `Ratio`: the core's exact fractions in JavaScript, and exact arguments (an RTP, a record's multiplier) given
//! as a string (`"0.99"`, `"99/100"`) or a `Ratio`, never a `number` (a binary float cannot hold 0.99).
//!
//! The class is JavaScript (helpers.js) over the core's text of the fraction: a service makes one with every
//! reveal and cash-out, and a Node-API class instance (a wrapped native object, its type tag, reference and
//! finalizer) cost about five times a plain object made by one call into JavaScript. Its methods call the
//! functions of [`natives`] with that text; every rule and message is still the core's.

use fairmines::{Exact, Number, Rtp};
use napi::bindgen_prelude::{
    BigInt, Either, Env, FromNapiValue, FunctionCallContext, JsObjectValue, Null, Object, Result, ToNapiValue,
    TypeName, Unknown,
};
use napi::{JsString, JsValue, ValueType, sys};

use crate::{Converted, Failure, NumberArg, StringArg, guard, internal, number, text_in, type_name};

/// A fraction given to JavaScript: a `Ratio` of helpers.js over its text.
pub struct Ratio(fairmines::Ratio);

impl From<fairmines::Ratio> for Ratio {
    fn from(inner: fairmines::Ratio) -> Self {
        Ratio(inner)
    }
}

impl TypeName for Ratio {
    fn type_name() -> &'static str {
        "Ratio"
    }

    fn value_type() -> ValueType {
        ValueType::Object
    }
}

// napi-rs's conversion of a returned value is an unsafe trait method; its body here is safe code.
#[allow(unsafe_code)]
impl ToNapiValue for Ratio {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        Ok(crate::ratio_object(&Env::from_raw(env), val.0.to_string())?.raw())
    }
}

/// An exact argument: a string (`"99/100"`, `"0.99"`, `"3"`), a `Ratio`, or anything else (a `TypeError`).
pub(crate) type RatioArg<'env> = Either<JsString<'env>, Unknown<'env>>;

pub(crate) const RATIO_EXPECTED: &str = "a string such as '0.99' or '99/100', or a Ratio";

pub(crate) enum ExactArg {
    Text(String),
    Ratio(fairmines::Ratio),
}

impl ExactArg {
    pub(crate) fn get(&self) -> Exact<'_> {
        match self {
            ExactArg::Text(text) => Exact::Text(text),
            ExactArg::Ratio(ratio) => Exact::Ratio(*ratio),
        }
    }
}

/// An exact argument, for the core's [`Exact`]; `label` names it in messages (`record.rtp`).
pub(crate) fn exact(value: RatioArg, argument: &str, label: &'static str) -> Converted<ExactArg> {
    let other = match value {
        Either::A(string) => return Ok(ExactArg::Text(text_in(Either::A(string), argument, label)?)),
        Either::B(other) => other,
    };
    match other.get_type().ok() {
        Some(ValueType::Object) => match crate::ratio_text(&Env::from_raw(other.value().env), &other) {
            Ok(Some(text)) => Ok(ExactArg::Ratio(own(&text)?)),
            Ok(None) => Err(Failure::wrong_type(argument, label, RATIO_EXPECTED, &type_name(&other))),
            Err(e) => Err(internal(label)(e)),
        },
        Some(ValueType::Number) => {
            let x = other.coerce_to_number().and_then(|n| n.get_double()).unwrap_or(f64::NAN);
            let got = format!(
                "the number {} (binary floating point cannot hold most decimal fractions: 0.99 is stored as \
                 0.98999999999999999112, so pass the exact value as a string, e.g. '0.99' or '99/100')",
                Number::Float(x)
            );
            Err(Failure::wrong_type(argument, label, RATIO_EXPECTED, &got))
        }
        _ => Err(Failure::wrong_type(argument, label, RATIO_EXPECTED, &type_name(&other))),
    }
}

pub(crate) fn rtp(value: RatioArg) -> Converted<Rtp> {
    exact(value, "rtp", "rtp")?.get().rtp().map_err(Failure::core)
}

pub(crate) fn ratio_or_null(value: Option<fairmines::Ratio>) -> Either<Ratio, Null> {
    value.map_or(Either::B(Null), |r| Either::A(r.into()))
}

/// The fraction of a `Ratio`'s text, which the core wrote (so it always parses).
fn own(text: &str) -> Converted<fairmines::Ratio> {
    fairmines::Ratio::parse(text, "text").map_err(Failure::core)
}

/// Argument `index` of a call from helpers.js's `Ratio` (which always passes every argument).
fn arg<T: FromNapiValue>(ctx: &FunctionCallContext, index: usize) -> Converted<T> {
    ctx.get(index).map_err(internal("argument"))
}

/// The functions helpers.js's `Ratio` calls, each with the ratio's text first (the class's documentation is
/// in node/header.d.ts): `fromParts(numerator, denominator)` and `parse(text)` give the text of a new ratio.
pub(crate) fn natives<'env>(env: &'env Env) -> Result<Object<'env>> {
    let mut natives = Object::new(env)?;
    add(env, &mut natives, "fromParts", |ctx| {
        let num = number(arg::<NumberArg>(ctx, 0)?, "numerator", "numerator")?;
        let den = number(arg::<NumberArg>(ctx, 1)?, "denominator", "denominator")?;
        Ok(fairmines::Ratio::from_parts(num, den).map_err(Failure::core)?.to_string())
    })?;
    add(env, &mut natives, "parse", |ctx| {
        let text = crate::text(arg::<StringArg>(ctx, 0)?, "text")?;
        Ok(fairmines::Ratio::parse(&text, "text").map_err(Failure::core)?.to_string())
    })?;
    add(env, &mut natives, "numerator", |ctx| Ok(BigInt::from(own(&arg::<String>(ctx, 0)?)?.numer())))?;
    add(env, &mut natives, "denominator", |ctx| Ok(BigInt::from(own(&arg::<String>(ctx, 0)?)?.denom())))?;
    add(env, &mut natives, "toDecimal", |ctx| {
        let ratio = own(&arg::<String>(ctx, 0)?)?;
        let places = number(arg::<NumberArg>(ctx, 1)?, "places", "places")?;
        Ok(ratio.to_decimal(fairmines::Places::new(places).map_err(Failure::core)?))
    })?;
    add(env, &mut natives, "toNumber", |ctx| Ok(own(&arg::<String>(ctx, 0)?)?.to_f64()))?;
    add(env, &mut natives, "equals", |ctx| {
        let ratio = own(&arg::<String>(ctx, 0)?)?;
        Ok(exact(arg::<RatioArg>(ctx, 1)?, "other", "other")?.get().ratio("other").map_err(Failure::core)? == ratio)
    })?;
    Ok(natives)
}

fn add<R: ToNapiValue + 'static>(
    env: &Env,
    natives: &mut Object<'_>,
    name: &str,
    body: impl Fn(&FunctionCallContext) -> Converted<R> + 'static,
) -> Result<()> {
    let function = env.create_function_from_closure::<(), R, _>(name, move |ctx| {
        let env = *ctx.env;
        guard(&env, || body(&ctx))
    })?;
    natives.set_named_property(name, function)
}

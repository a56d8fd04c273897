//! The row layer's tests: each written form read back, and the plain JSON reader against serde_json.

use serde_json::{Value, json};

use super::json::parse_plain;
use super::*;

const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const COMMITMENT: &str = "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42";

fn example() -> Value {
    json!({"server_seed": SERVER, "commitment": COMMITMENT, "client_seed": "c", "nonce": 1, "mines": 3,
           "positions": "7,10,19", "round_id": 42})
}

#[test]
fn json_rows_parse_and_name_the_field_at_fault() {
    let row = Row::from_json_value(&example()).unwrap();
    assert_eq!(&*row.positions, &[7, 10, 19]);
    assert_eq!(row.round_id.as_deref(), Some("42"));
    assert!(!format!("{row:?}").contains(SERVER));
    for (field, value, says) in [
        ("mines", json!(25), "mines: must be a whole number from 1 to 24, got 25"),
        ("mines", json!("3"), "mines: must be an integer, got a string"),
        ("nonce", json!(-1), "nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got -1"),
        ("nonce", json!(1.5), "nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got 1.5"),
        ("nonce", json!(true), "nonce: must be an integer, got a boolean"),
        ("commitment", json!("xyz"), "commitment: must be 64 hexadecimal characters"),
        ("positions", json!([7, "10"]), "positions: item 1 must be an integer tile number"),
        ("positions", json!("7,x"), "positions: \"x\" is not a tile number"),
        ("positions", json!([26]), "positions: tile 26"),
        ("server_seed", json!(true), "server_seed: must be a string, got a boolean"),
        ("client_seed", Value::Null, "client_seed: missing"),
        ("client_seed", json!(2.5), "client_seed: must be a string, got 2.5 (a number is read as its digits"),
        ("client_seed", json!({}), "client_seed: must be a string, got an object"),
        ("round_id", json!([1]), "round_id: must be a string or a number"),
    ] {
        let mut row = example();
        row[field] = value;
        let error = Row::from_json_value(&row).unwrap_err();
        assert_eq!(error.field, Some(field));
        assert!(error.message.starts_with(says), "{field}: {}", error.message);
    }
}

#[test]
fn numbers_follow_the_cores_rules_and_numeric_seeds_are_their_digits() {
    // What pandas makes of a CSV: client seeds of digits as integers, integer columns with a gap as floats.
    let mut row = example();
    row["client_seed"] = json!(123456);
    row["nonce"] = json!(1.0);
    row["mines"] = json!(3.0);
    row["positions"] = json!([7.0, 10, 19.0]);
    row["round_id"] = json!(42.0);
    let read = Row::from_json_value(&row).unwrap();
    assert_eq!((read.client_seed.as_str(), read.nonce, read.mines.get()), ("123456", 1, 3));
    assert_eq!((&*read.positions, read.round_id.as_deref()), (&[7, 10, 19][..], Some("42")));
    row["nonce"] = json!(1e300);
    assert!(Row::from_json_value(&row).unwrap_err().message.starts_with("nonce: must be a whole number from"));
}

#[test]
fn a_column_mapping_names_the_fields_and_is_checked() {
    let mapping =
        |pairs: &[(&str, &str)]| Names::new(&pairs.iter().map(|&(a, b)| (a.to_owned(), b.to_owned())).collect());
    let names = mapping(&[("serverSeed", "server_seed"), ("id", "round_id")]).unwrap();
    let mut row = example();
    let seed = row.as_object_mut().unwrap().remove("server_seed").unwrap();
    row["serverSeed"] = seed;
    row["id"] = json!("x");
    let read = parse_value(&row, &names).unwrap();
    assert_eq!((read.server_seed.as_str(), read.round_id.as_deref()), (SERVER, Some("x")));
    assert_eq!(parse_value(&row, &Names::default()).unwrap_err().0.message, "server_seed: missing");
    let wrong = mapping(&[("a", "seed")]).unwrap_err().to_string();
    assert!(wrong.starts_with("columns: \"a\" is mapped to \"seed\", which is not a field"), "{wrong}");
    let twice = mapping(&[("a", "nonce"), ("b", "nonce")]).unwrap_err().to_string();
    assert_eq!(twice, "columns: \"a\" and \"b\" are both mapped to nonce");
    let header = ["ServerSeed ".to_owned(), "x".to_owned()];
    let located = names.locate(&header, "the CSV header").unwrap_err();
    assert!(
        located.ends_with("missing: commitment, client_seed, nonce, mines, positions (its columns: ServerSeed , x)")
    );
}

/// The plain reader agrees with serde_json and the format's rules on every line it reads, and leaves every
/// other line to them: rows in many written forms, and each of them with every byte changed in turn to
/// bytes that matter to JSON (or removed).
#[test]
fn plain_lines_read_as_serde_json_reads_them() {
    let names = Names::default();
    let general = |line: &[u8]| -> Option<Row> {
        serde_json::from_slice::<Value>(line).ok().and_then(|value| parse_value(&value, &names).ok())
    };
    let lines = [
        format!(
            r#"{{"server_seed":"{SERVER}","commitment":"{COMMITMENT}","client_seed":"c","nonce":1,"mines":3,"positions":[7,10,19],"round_id":"r1"}}"#
        ),
        format!(
            r#"{{ "round_id" : 42 , "nonce":0,"mines":1,"positions":"7","client_seed":"","commitment":"{}","server_seed":"{SERVER}" }}"#,
            COMMITMENT.to_uppercase()
        ),
        format!(
            "{{\t\"server_seed\": \"{SERVER}\", \"commitment\": \"{COMMITMENT}\", \"client_seed\": \"ünï:cødé\", \"nonce\": 9007199254740991, \"mines\": 24, \"positions\": [ 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24 ] }}"
        ),
        format!(
            r#"{{"extra":[1,2],"more":"x","server_seed":"not hex","commitment":"{COMMITMENT}","client_seed":"a\"b","nonce":18446744073709551615,"mines":2,"positions":"[3, 4]"}}"#
        ),
        format!(
            r#"{{"server_seed":"s","commitment":"{COMMITMENT}","client_seed":"c","nonce":1,"mines":3,"positions":[7,10,19],"nonce":2}}"#
        ),
        "{}".to_owned(),
    ];
    let (mut variants, mut plain) = (0, 0);
    for line in &lines {
        let line = line.as_bytes();
        let mut forms = vec![line.to_vec()];
        for i in 0..line.len() {
            for byte in *b" \t\"\\,:0123456789-+.eE[]{}nax\x01\xc3\xff" {
                let mut changed = line.to_vec();
                changed[i] = byte;
                forms.push(changed);
            }
            let mut shorter = line.to_vec();
            shorter.remove(i);
            forms.push(shorter);
        }
        for form in forms {
            variants += 1;
            let read = parse_json_line(&form, &names).ok().map(RowRef::into_owned);
            assert_eq!(read, general(&form), "{}", String::from_utf8_lossy(&form));
            if let Some(row) = parse_plain(&form, &names) {
                plain += 1;
                assert_eq!(Some(row.into_owned()), general(&form), "{}", String::from_utf8_lossy(&form));
            }
        }
    }
    // Most rows are read the plain way, and many changed ones are left to the general path.
    assert!(plain > variants / 5 && plain < variants, "{plain} of {variants} read plain");
}

#[test]
fn positions_parse_in_every_written_form() {
    for text in ["7,10,19", "19, 10, 7", "[7, 10, 19]", " 7 10 19 ", "7;10;19"] {
        assert_eq!(&*parse_positions(text).unwrap(), &[7, 10, 19], "{text}");
    }
}

#[test]
fn written_rows_read_back() {
    let mut row = Row::from_json_value(&example()).unwrap();
    row.client_seed = "a, \"quoted\" seed".into();
    assert_eq!(Row::from_json_line(row.to_json_line().as_bytes()).unwrap(), row);
    let text = format!("{CSV_HEADER}\n{}\n", row.to_csv_line());
    let mut reader = ::csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let header = CsvHeader::new(reader.byte_headers().unwrap(), &Names::default()).unwrap();
    let record = reader.byte_records().next().unwrap().unwrap();
    let (mut text, mut ends) = (Vec::new(), Vec::new());
    for field in &record {
        text.extend_from_slice(field);
        ends.push(text.len());
    }
    let record = Record { text: &text, start: 0, ends: &ends };
    assert_eq!(header.parse(record).unwrap().into_owned(), row);
}

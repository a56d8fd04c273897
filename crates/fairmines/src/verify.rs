//! Step 5: checking a finished round against what the operator published.

use crate::{Digest, Error, MineCount, Number, Placement, Tiles, commitment, placement_for_signature, round_signature};

/// What the operator published about a finished round. `commitment` and `positions` are optional:
/// a check is made only for what is given.
#[derive(Clone, Copy, Debug)]
pub struct Published<'a> {
    /// The revealed server seed (any string; the operator's are 64 hex characters).
    pub server_seed: &'a str,
    /// The player's client seed.
    pub client_seed: &'a str,
    /// The round's nonce.
    pub nonce: u64,
    /// The mine count of the round.
    pub mines: MineCount,
    /// The commitment shown before play, if it is to be checked.
    pub commitment: Option<Digest>,
    /// The mine positions the operator declared (1-based, see [`Tiles::declared`]), if they are to be checked.
    pub positions: Option<Tiles>,
}

/// One check: what the seeds give against what was declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check<T> {
    /// Recomputed from the seeds.
    pub expected: T,
    /// As published by the operator.
    pub declared: T,
}

impl<T: PartialEq> Check<T> {
    /// Whether the declared value equals the recomputed one.
    pub fn ok(&self) -> bool {
        self.expected == self.declared
    }
}

/// What a verification concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// At least one check was asked for, and every one holds.
    Ok,
    /// A check that was asked for fails.
    Mismatch,
    /// No check was asked for (neither a commitment nor positions): the round was only recomputed, and
    /// nothing the operator published was compared with it.
    Unchecked,
}

impl Verdict {
    /// `"ok"`, `"mismatch"` or `"unchecked"`: the form every binding and the CLI's JSON use.
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Mismatch => "mismatch",
            Verdict::Unchecked => "unchecked",
        }
    }
}

/// The verdict on a round: everything recomputed, and each requested check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verification {
    /// SHA3-256 of the revealed server seed.
    pub commitment: Digest,
    /// The recomputed round signature.
    pub signature: Digest,
    /// The recomputed mine placement.
    pub placement: Placement,
    /// The commitment check, if a commitment was given.
    pub commitment_check: Option<Check<Digest>>,
    /// The positions check, if positions were given.
    pub positions_check: Option<Check<Tiles>>,
}

impl Verification {
    /// `Some(ok)` for the commitment check, `None` if it was not asked for.
    pub fn commitment_ok(&self) -> Option<bool> {
        self.commitment_check.map(|c| c.ok())
    }

    /// `Some(ok)` for the positions check, `None` if it was not asked for.
    pub fn positions_ok(&self) -> Option<bool> {
        self.positions_check.map(|c| c.ok())
    }

    /// [`Verdict::Unchecked`] when no check was asked for, else whether every check holds.
    pub fn verdict(&self) -> Verdict {
        match (self.commitment_ok(), self.positions_ok()) {
            (None, None) => Verdict::Unchecked,
            (Some(false), _) | (_, Some(false)) => Verdict::Mismatch,
            _ => Verdict::Ok,
        }
    }

    /// True when at least one check was asked for and every one holds ([`Verdict::Ok`]). A verification
    /// with nothing to check is not ok: see [`Verification::verdict`].
    pub fn is_ok(&self) -> bool {
        self.verdict() == Verdict::Ok
    }
}

/// Recomputes a round from its seeds and compares it with what was published.
///
/// ```
/// use fairmines::{verify, Published, MineCount, Tiles};
/// let verdict = verify(&Published {
///     server_seed: "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a",
///     client_seed: "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817",
///     nonce: 1,
///     mines: MineCount::new(3)?,
///     commitment: Some("f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42".parse()?),
///     positions: Some(Tiles::declared([7, 10, 20], "positions")?),
/// });
/// assert_eq!(verdict.commitment_ok(), Some(true));
/// let positions = verdict.positions_check.unwrap();
/// assert!(!positions.ok());
/// assert_eq!(&*positions.expected, &[7, 10, 19]);
/// assert!(!verdict.is_ok());
/// # Ok::<(), fairmines::Error>(())
/// ```
pub fn verify(published: &Published<'_>) -> Verification {
    let computed_commitment = commitment(published.server_seed);
    let signature = round_signature(published.server_seed, published.client_seed, published.nonce);
    let placement = placement_for_signature(&signature, published.mines);
    Verification {
        commitment: computed_commitment,
        signature,
        placement,
        commitment_check: published.commitment.map(|declared| Check { expected: computed_commitment, declared }),
        positions_check: published.positions.map(|declared| Check { expected: placement.positions(), declared }),
    }
}

/// Something in the seeds given to [`verify`] that looks mistyped: the operator's seeds never look like it, so
/// a mismatch is more likely the input's fault than the operator's. Shown as `argument: detail`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doubt {
    /// The seed it is about: `server_seed` or `client_seed`.
    pub argument: &'static str,
    /// What looks wrong, in words.
    pub detail: String,
}

impl core::fmt::Display for Doubt {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.argument, self.detail)
    }
}

/// What looks mistyped in a seed: nothing for a seed of the operator's form.
fn doubt(argument: &'static str, text: &str, operator_form: bool) -> Option<Doubt> {
    let detail = if text.is_empty() {
        "is empty: paste the whole seed".to_owned()
    } else if text.trim() != text {
        "has white space at its start or end (copied with it?): a seed is hashed exactly as written".to_owned()
    } else if !operator_form {
        return None;
    } else if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        if !text.bytes().any(|b| b.is_ascii_uppercase()) {
            return None;
        }
        "has upper-case letters: the operator's server seeds are lowercase hex, and a seed is hashed exactly as \
         written"
            .to_owned()
    } else {
        let hex = if text.bytes().all(|b| b.is_ascii_hexdigit()) { "" } else { ", not all of them hex" };
        format!(
            "is not in the form of the operator's server seeds, 64 lowercase hex characters ({} characters{hex})",
            text.chars().count()
        )
    };
    Some(Doubt { argument, detail })
}

impl<'a> Published<'a> {
    /// What looks mistyped in the seeds: a server seed that is empty, has white space around it or is not 64
    /// lowercase hex characters (the operator's form), a client seed that is empty or has white space around it.
    /// Any text is a valid seed, so these never make [`verify`] fail; they say why a mismatch may be the
    /// input's fault (a trailing space changes every hash), which is what a player should read first.
    ///
    /// ```
    /// use fairmines::{MineCount, Published};
    /// let server = "B6C230A9B1EE0FECE242600E3354F5B161258600401B469E9DC4F20CD862CA7A";
    /// let published = Published { server_seed: server, client_seed: "player ", nonce: 1,
    ///     mines: MineCount::new(3)?, commitment: None, positions: None };
    /// let doubts: Vec<String> = published.doubts().iter().map(|d| d.to_string()).collect();
    /// assert_eq!(doubts, [
    ///     "server_seed: has upper-case letters: the operator's server seeds are lowercase hex, and a seed is \
    ///      hashed exactly as written",
    ///     "client_seed: has white space at its start or end (copied with it?): a seed is hashed exactly as written",
    /// ]);
    /// # Ok::<(), fairmines::Error>(())
    /// ```
    pub fn doubts(&self) -> Vec<Doubt> {
        [doubt("server_seed", self.server_seed, true), doubt("client_seed", self.client_seed, false)]
            .into_iter()
            .flatten()
            .collect()
    }

    /// [`Published::doubts`] when `checked` (this round's [`verify`]) did not hold, none when it did: a round
    /// whose checks hold is the operator's whatever its seeds look like; otherwise a seed that looks mistyped is
    /// the likelier cause, to be named before any mismatch. What every verifier shows beside its verdict.
    pub fn doubts_for(&self, checked: &Verification) -> Vec<Doubt> {
        if checked.is_ok() { Vec::new() } else { self.doubts() }
    }

    /// Builds the input of [`verify`] from values as a binding received them, checking each one: the nonce,
    /// the mine count, the commitment's hex text and the declared tiles. Errors name the argument at fault.
    /// The order of the arguments is the order of every binding's `verify`.
    ///
    /// ```
    /// use fairmines::{Number, Published};
    /// let server = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    /// let client = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
    /// let positions = [7, 10, 19].map(Number::from);
    /// let published = Published::parse(server, client, 1, 3, None, Some(&positions))?;
    /// assert!(fairmines::verify(&published).is_ok());
    /// let refused = Published::parse(server, client, 1, Number::Float(3.5), None, None).unwrap_err();
    /// assert_eq!(refused.to_string(), "mines: must be a whole number from 1 to 24, got 3.5");
    /// # Ok::<(), fairmines::Error>(())
    /// ```
    pub fn parse(
        server_seed: &'a str,
        client_seed: &'a str,
        nonce: impl Into<Number>,
        mines: impl Into<Number>,
        commitment: Option<&str>,
        positions: Option<&[Number]>,
    ) -> Result<Self, Error> {
        Ok(Published {
            server_seed,
            client_seed,
            nonce: crate::input::nonce(nonce.into())?,
            mines: MineCount::try_from(mines.into())?,
            commitment: commitment.map(|c| Digest::parse_hex(c, "commitment")).transpose()?,
            positions: positions.map(|p| Tiles::declared(p.iter().copied(), "positions")).transpose()?,
        })
    }
}

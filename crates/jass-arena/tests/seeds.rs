//! The published seed lists (docs/bots.md, "Seed lists: tuning and claims"): disjoint,
//! their deals differ, and the command line keeps them apart.

use jass_arena::{
    CLAIM_SEED, CLAIM_SEEDS, SeedList, TUNING_SEED, TUNING_SEEDS, choose_seed, deal_seed, player_seed,
};
use jass_engine::{Seat, deal};
use std::collections::HashSet;

/// No master seed is in both lists, and each default is in its own list.
#[test]
fn tuning_and_claim_lists_are_disjoint() {
    assert!(TUNING_SEEDS.end() < CLAIM_SEEDS.start() || CLAIM_SEEDS.end() < TUNING_SEEDS.start());
    assert_eq!(SeedList::of(TUNING_SEED), SeedList::Tuning);
    assert_eq!(SeedList::of(CLAIM_SEED), SeedList::Claim);
    assert_eq!(SeedList::of(*TUNING_SEEDS.end()), SeedList::Tuning);
    assert_eq!(SeedList::of(*CLAIM_SEEDS.start()), SeedList::Claim);
    assert_eq!(SeedList::of(0), SeedList::Custom);
    assert_eq!(SeedList::of(*TUNING_SEEDS.end() + 1), SeedList::Custom);
    assert_eq!(SeedList::of(*CLAIM_SEEDS.end() + 1), SeedList::Custom);
}

/// The deals the two defaults produce differ: no deal seed and no set of hands of the
/// first 500 deals of the tuning default appears among the claim default's, and the
/// players' seeds differ too.
#[test]
fn tuning_and_claim_lists_deal_different_cards() {
    let tuning: HashSet<_> = (0..500).map(|i| deal_seed(TUNING_SEED, i).0).collect();
    let claim: HashSet<_> = (0..500).map(|i| deal_seed(CLAIM_SEED, i).0).collect();
    assert_eq!((tuning.len(), claim.len()), (500, 500));
    assert!(tuning.is_disjoint(&claim));
    let hands = |m: u64| (0..500).map(|i| deal(deal_seed(m, i), None).hands).collect::<HashSet<_>>();
    assert!(hands(TUNING_SEED).is_disjoint(&hands(CLAIM_SEED)));
    for i in 0..50 {
        for s in Seat::ALL {
            assert_ne!(player_seed(TUNING_SEED, i, s, 1), player_seed(CLAIM_SEED, i, s, 1));
        }
    }
}

/// The command line's choice: the tuning default without flags, a list's default, a
/// seed must sit in the list it is given with.
#[test]
fn choosing_a_seed_keeps_the_lists_apart() {
    assert_eq!(choose_seed(None, None), Ok((TUNING_SEED, SeedList::Tuning)));
    assert_eq!(choose_seed(Some(SeedList::Claim), None), Ok((CLAIM_SEED, SeedList::Claim)));
    assert_eq!(choose_seed(None, Some(1_000_007)), Ok((1_000_007, SeedList::Claim)));
    assert_eq!(choose_seed(None, Some(5_000_000)), Ok((5_000_000, SeedList::Custom)));
    assert_eq!(choose_seed(Some(SeedList::Tuning), Some(3)), Ok((3, SeedList::Tuning)));
    assert!(
        choose_seed(Some(SeedList::Tuning), Some(CLAIM_SEED)).unwrap_err().contains("not in the tuning list")
    );
    assert!(choose_seed(Some(SeedList::Claim), Some(17)).is_err());
    assert!(choose_seed(Some(SeedList::Custom), None).is_err());
}

/// The result line names the list, and a seed outside the list it is given with is
/// refused with a clear message.
#[test]
fn command_names_the_seed_list() {
    let bin = env!("CARGO_BIN_EXE_jass-arena");
    let run = |args: &[&str]| std::process::Command::new(bin).args(args).output().unwrap();
    let base =
        ["--a", "rules", "--b", "random", "--deals", "2", "--contract-playouts", "20", "--threads", "1"];
    let out = run(&[&base[..], &["--seeds", "claim"]].concat());
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("seed 1000000 (claim list)"));
    let out = run(&base);
    assert!(String::from_utf8_lossy(&out.stdout).contains("seed 17 (tuning list)"));
    let bad = run(&[&base[..], &["--seeds", "claim", "--seed", "17"]].concat());
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not in the claim list"));
}

/// A player's own budget after a colon overrides the flags for that player alone, so
/// two settings of one player can meet; a key the player does not have is refused.
#[test]
fn command_takes_each_players_own_budget() {
    let bin = env!("CARGO_BIN_EXE_jass-arena");
    let run = |a: &str, b: &str| {
        std::process::Command::new(bin)
            .args(["--a", a, "--b", b, "--deals", "2", "--contract-playouts", "20", "--threads", "1"])
            .args(["--strong-playouts", "50"])
            .output()
            .unwrap()
    };
    let out = run("strong:playouts=100,solve=12,deals=2", "strong");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "strong(100 playouts, 2 deals solved from 12 cards, at most 400k nodes, deals weighed by the contract choice, informed playouts, contracts by the review's value, deals weighed by the opponents' cards (160/256 a miss)) vs strong(50 playouts"
        ),
        "{text}"
    );
    // A wall-time budget is named, since the play it gives does not reproduce.
    let out = run("strong:playouts=100,solve=12,deals=2,ms=100,infer=0,informed=0,choose=0", "rules");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "strong(100 playouts, 2 deals solved from 12 cards, at most 400k nodes, at most 100 ms a decision, deals weighed by the opponents' cards (160/256 a miss)) vs rules"
        ),
        "{text}"
    );
    // The variants measured and not taken by the level are named too, and the weighing
    // by the opponents' cards can be set or switched off.
    let out = run("strong:playouts=100,solve=12,deals=2,open=1,play=64", "rules");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("informed playouts seeing the later hands, contracts by the review's value, deals weighed by the opponents' cards (64/256 a miss)) vs rules"),
        "{text}"
    );
    let bad = run("strong:depth=3", "rules");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("\"depth\" is not a setting of strong"));
    let bad = run("rules:playouts=3", "rules");
    assert!(!bad.status.success());
}

//! Fitted by `cargo run --release -p jass-ai --example fit_choice -- 20000 1`; do not
//! edit. On the 4000 hands left out of the fit:
//! - trump leading the hand: R² 0.980, error sd 4.48 points;
//! - trump leading its partner: R² 0.980, error sd 4.38 points;
//! - Obenabe leading the hand: R² 0.954, error sd 6.23 points;
//! - Obenabe leading its partner: R² 0.958, error sd 5.74 points;
//! - Undenufe leading the hand: R² 0.958, error sd 5.92 points;
//! - Undenufe leading its partner: R² 0.960, error sd 5.58 points;
//! - the contract of highest estimated worth is the computer's 91.7 % of the time;
//! - mean log-likelihood of its choice -0.196, of its push -0.137.

/// Per kind (trump, Obenabe, Undenufe), per who leads (the seat, its partner).
#[rustfmt::skip]
pub(super) const WEIGHTS: [[[f32; 20]; 2]; 3] = [
    [
        [-52.3966, -10.1707, -9.6493, -8.9744, 16.2504, -3.6351, 31.1191, -4.8627, -2.1159, 7.1069, 15.0685, 12.3051, 8.4183, -2.1937, 3.8491, 0.8646, -1.4259, -0.9290, 0.7736, -0.5082],
        [-50.0535, -10.2917, -9.7380, -9.0562, 16.0572, -3.7128, 30.9339, -4.8097, -2.1272, 6.8700, 14.1256, 13.1619, 8.1481, -2.2755, 3.6493, 1.0969, -2.6361, -0.9995, 0.5936, -0.4638],
    ],
    [
        [1.1845, -8.0606, -7.7211, -8.9273, -5.7560, -5.0047, -0.5859, 3.3883, 10.6079, 32.7201, -2.0801, 1.4169, -3.2035, 0.5756, -3.2471, -1.9170, 0.0000, 0.0000, 0.0000, 0.0000],
        [1.2126, -7.5767, -7.2193, -8.4169, -5.3961, -4.7563, -0.4828, 3.3324, 9.8537, 31.5754, -1.1050, 1.2448, -4.2454, -0.8599, -3.3718, -1.3821, 0.0000, 0.0000, 0.0000, 0.0000],
    ],
    [
        [1.2110, -8.1584, -8.7591, -7.5534, -6.1246, -4.7783, -0.5626, 4.6129, 9.4119, 32.8112, -1.7205, 1.3837, -2.9634, 0.4563, -3.4424, -1.9576, 0.0000, 0.0000, 0.0000, 0.0000],
        [1.0476, -7.6219, -8.2737, -7.1519, -5.6760, -4.5476, -0.4440, 4.4738, 8.4118, 30.2582, 0.9402, 0.8243, -4.2182, -0.8792, -3.5095, -1.0804, 0.0000, 0.0000, 0.0000, 0.0000],
    ],
];
/// The softmax temperature of the choice among the contracts.
pub(super) const CHOICE_TEMPERATURE: f64 = 3.5;
/// The logistic temperature of the push.
pub(super) const PUSH_TEMPERATURE: f64 = 2.5;

//! The game as a value: intents judged, played, taken back and replayed.

use fanorona::StepKind;

use super::*;

#[test]
fn every_intent_kind_round_trips_through_its_name_and_its_intent() {
    assert_eq!(IntentKind::ALL.len(), 16);
    for &kind in IntentKind::ALL {
        assert_eq!(IntentKind::from_name(kind.name()), Some(kind));
        match Intent::without_fields(kind) {
            Some(intent) => assert_eq!(intent.kind(), kind),
            None => assert!(matches!(
                kind,
                IntentKind::Step | IntentKind::SetLevel | IntentKind::Message
            )),
        }
    }
    assert_eq!(IntentKind::from_name("Step"), None);
}

fn step(by: Color, text: &str, kind: StepKind) -> Action {
    let (from, to) = text.split_once('-').expect("a step");
    Action {
        by,
        intent: Intent::Step {
            from: from.parse().expect("square"),
            to: to.parse().expect("square"),
            kind,
        },
    }
}

#[test]
fn a_capture_is_recorded_in_notation_with_what_it_took() {
    let mut game = Game::new(Position::start());
    game.apply(step(Color::White, "d3-e3", StepKind::Approach))
        .expect("legal");
    assert_eq!(game.moves, ["d3-e3A"]);
    assert_eq!(game.captures, [vec![Square::F3]]);
    let last = game.last.as_ref().expect("a completed turn");
    assert_eq!(last.path(), [Square::D3, Square::E3]);
    assert_eq!(last.captured, [Square::F3]);
    assert_eq!(game.seq, 1);
}

#[test]
fn every_completed_turn_keeps_what_it_took_beside_its_notation() {
    let mut game = Game::new(Position::start());
    let mut pos = game.position;
    let mut taken = Vec::new();
    let mut in_turn = Vec::new();
    for n in 0..120_usize {
        let steps = pos.legal_steps();
        let Some(&s) = steps.get(n * 5 % steps.len().max(1)) else {
            break;
        };
        if game.result.is_some() {
            break;
        }
        let by = pos.turn();
        in_turn.extend(pos.captures(s));
        game.apply(Action {
            by,
            intent: Intent::Step {
                from: s.from(),
                to: s.to(),
                kind: s.kind(),
            },
        })
        .expect("legal");
        if game.current.is_none() {
            taken.push(std::mem::take(&mut in_turn));
        } else if n % 2 == 0 {
            game.apply(Action {
                by,
                intent: Intent::EndTurn,
            })
            .expect("may stop");
            taken.push(std::mem::take(&mut in_turn));
        }
        pos = game.position;
    }
    assert_eq!(game.captures, taken);
    assert_eq!(game.captures.len(), game.moves.len());
    assert!(game.captures.iter().filter(|c| c.len() > 1).count() > 0);
}

#[test]
fn a_refused_action_changes_nothing() {
    let mut game = Game::new(Position::start());
    let err = game.apply(step(Color::Black, "d3-e3", StepKind::Approach));
    assert_eq!(err, Err(GameError::NotYourTurn));
    let err = game.apply(step(Color::White, "e2-e3", StepKind::Paika));
    assert_eq!(err.map_err(|e| e.code()), Err("capture_required"));
    assert_eq!(game.seq, 0);
    assert_eq!(game.position, Position::start());
}

#[test]
fn a_refused_plan_leaves_the_game_byte_identical_and_an_accepted_one_is_played() {
    let intents = [
        Intent::EndTurn,
        Intent::Resign,
        Intent::OfferDraw,
        Intent::AcceptDraw,
        Intent::DeclineDraw,
        Intent::ClaimVictory,
        Intent::Rematch,
    ];
    let (mut refused, mut accepted) = (0, 0);
    let mut rng = 7_u64;
    for _ in 0..20 {
        let mut game = Game::new(Position::start());
        for _ in 0..200 {
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let by = if rng >> 40 & 1 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let steps = game.position.legal_steps();
            let pick = usize::try_from(rng >> 33).unwrap_or(0);
            let intent = match steps.get(pick % (steps.len() + 12)) {
                Some(s) => Intent::Step {
                    from: s.from(),
                    to: s.to(),
                    kind: s.kind(),
                },
                None => intents[pick % intents.len()],
            };
            let action = Action { by, intent };
            let before = format!("{game:?}");
            let played = game.position;
            match game.apply(action) {
                Err(_) => {
                    refused += 1;
                    assert_eq!(format!("{game:?}"), before, "{action:?}");
                }
                Ok(()) => {
                    accepted += 1;
                    if let Intent::Step { from, to, kind } = intent {
                        let step = played.check_step(from, to, kind).expect("was legal");
                        assert_eq!(game.position, played.play_step_unchecked(step));
                    }
                }
            }
        }
    }
    assert!(refused > 100 && accepted > 50, "{refused} {accepted}");
}

#[test]
fn a_plan_applies_only_to_the_game_it_was_made_for() {
    let mut game = Game::new(Position::start());
    let first = game
        .plan(step(Color::White, "d3-e3", StepKind::Approach), 0)
        .expect("legal");
    let offer = game
        .plan(
            Action {
                by: Color::Black,
                intent: Intent::OfferDraw,
            },
            0,
        )
        .expect("legal");
    game.commit(first).expect("fresh");
    let before = format!("{game:?}");
    assert_eq!(game.commit(offer), Err(StalePlan));
    assert_eq!(format!("{game:?}"), before);
}

#[test]
fn draw_offers_are_accepted_or_declined_by_the_opponent_only() {
    let mut game = Game::new(Position::start());
    let act = |by, intent| Action { by, intent };
    game.apply(act(Color::White, Intent::OfferDraw))
        .expect("offer");
    assert_eq!(
        game.apply(act(Color::White, Intent::AcceptDraw)),
        Err(GameError::NoDrawOffer)
    );
    game.apply(act(Color::Black, Intent::DeclineDraw))
        .expect("decline");
    assert_eq!(game.draw_offer, None);
    game.apply(act(Color::Black, Intent::OfferDraw))
        .expect("offer");
    game.apply(act(Color::White, Intent::AcceptDraw))
        .expect("accept");
    assert_eq!(
        game.result,
        Some(GameResult {
            winner: None,
            reason: Reason::Agreement
        })
    );
    let ask = game
        .plan(act(Color::White, Intent::Rematch), 0)
        .expect("ask");
    assert!(!ask.completes_rematch());
    game.commit(ask).expect("fresh");
    let answer = game
        .plan(act(Color::Black, Intent::Rematch), 0)
        .expect("ask");
    assert!(answer.completes_rematch());
}

/// Plays a whole turn for the side to move: its first legal steps,
/// ending the chain as soon as it may.
fn play_turn(game: &mut Game, pick: usize) {
    let by = game.position.turn();
    loop {
        let intent = if game.position.can_end_turn() {
            Intent::EndTurn
        } else {
            let steps = game.position.legal_steps();
            let s = steps[pick % steps.len()];
            Intent::Step {
                from: s.from(),
                to: s.to(),
                kind: s.kind(),
            }
        };
        game.apply(Action { by, intent }).expect("legal");
        if game.current.is_none() {
            return;
        }
    }
}

#[test]
fn a_takeback_replays_the_line_before_the_senders_last_turn() {
    let seat = ComputerSeat {
        color: Color::Black,
        level: Level::MIN,
    };
    let mut game = Game::with_computer(Position::start(), Some(seat));
    let takeback = Action {
        by: Color::White,
        intent: Intent::Takeback,
    };
    assert_eq!(game.apply(takeback), Err(GameError::NothingToTakeBack));
    let mut snapshots = Vec::new();
    for n in 0..6 {
        snapshots.push(format!(
            "{:?}",
            (game.position, &game.moves, &game.captures)
        ));
        play_turn(&mut game, n);
        play_turn(&mut game, n + 1);
    }
    game.apply(Action {
        by: Color::White,
        intent: Intent::Hint,
    })
    .expect("on White's turn");
    let level = Level::new(4).expect("a level");
    game.apply(Action {
        by: Color::White,
        intent: Intent::SetLevel { level },
    })
    .expect("any time");
    let seq = game.seq;
    while let Some(before) = snapshots.pop() {
        game.apply(takeback).expect("a turn to take back");
        let now = format!("{:?}", (game.position, &game.moves, &game.captures));
        assert_eq!(now, before);
    }
    assert_eq!(game.seq, seq + 6);
    assert_eq!(game.computer.map(|c| c.level), Some(level));
    assert_eq!(game.apply(takeback), Err(GameError::NothingToTakeBack));
    let mut friends = Game::new(Position::start());
    assert_eq!(friends.apply(takeback), Err(GameError::NotAgainstComputer));
    let offer = Action {
        by: Color::White,
        intent: Intent::OfferDraw,
    };
    assert_eq!(game.apply(offer), Err(GameError::NotAgainstComputer));
}

fn act(by: Color, intent: Intent) -> Action {
    Action { by, intent }
}

#[test]
fn between_people_a_takeback_is_asked_for_then_granted_or_refused_by_the_opponent() {
    let mut game = Game::new(Position::start());
    let ask = |by| act(by, Intent::OfferTakeback);
    assert_eq!(
        game.apply(ask(Color::White)),
        Err(GameError::NothingToTakeBack)
    );
    let mut snapshots = Vec::new();
    for n in 0..3 {
        snapshots.push(format!(
            "{:?}",
            (game.position, &game.moves, &game.captures)
        ));
        play_turn(&mut game, n);
        play_turn(&mut game, n + 1);
    }
    // White, to move, asks to take back its last turn and Black's reply.
    game.apply(ask(Color::White)).expect("a turn to take back");
    assert_eq!(game.takeback_offer, Some(Color::White));
    assert_eq!(
        game.apply(ask(Color::White)),
        Err(GameError::TakebackAlreadyOffered)
    );
    for answer in [Intent::AcceptTakeback, Intent::DeclineTakeback] {
        assert_eq!(
            game.apply(act(Color::White, answer)),
            Err(GameError::NoTakebackOffer),
            "only the opponent answers"
        );
    }
    game.apply(act(Color::Black, Intent::DeclineTakeback))
        .expect("the opponent refuses");
    assert_eq!(game.takeback_offer, None);
    assert_eq!(
        game.apply(act(Color::Black, Intent::AcceptTakeback)),
        Err(GameError::NoTakebackOffer)
    );
    // Asked again, then granted: the line before White's last turn.
    game.apply(act(Color::White, Intent::OfferDraw))
        .expect("a draw offer too");
    game.apply(ask(Color::White)).expect("asked again");
    let seq = game.seq;
    game.apply(act(Color::Black, Intent::AcceptTakeback))
        .expect("granted");
    let now = format!("{:?}", (game.position, &game.moves, &game.captures));
    assert_eq!(Some(now), snapshots.pop());
    assert_eq!(game.seq, seq + 1, "stored like any action");
    assert_eq!((game.takeback_offer, game.draw_offer), (None, None));
    assert_eq!(game.position.turn(), Color::White);
    // Black, not to move, may ask too; a step withdraws the request.
    game.apply(ask(Color::Black))
        .expect("Black has a turn to take back");
    play_turn(&mut game, 0);
    assert_eq!(game.takeback_offer, None, "a step withdraws the request");
    assert_eq!(
        game.apply(act(Color::White, Intent::AcceptTakeback)),
        Err(GameError::NoTakebackOffer)
    );
    // Not once the game is over.
    game.apply(act(Color::White, Intent::Resign))
        .expect("resigns");
    assert_eq!(game.apply(ask(Color::Black)), Err(GameError::GameOver));
}

#[test]
fn takeback_requests_are_not_for_games_against_the_computer() {
    let seat = ComputerSeat {
        color: Color::Black,
        level: Level::MIN,
    };
    let mut game = Game::with_computer(Position::start(), Some(seat));
    play_turn(&mut game, 0);
    for intent in [
        Intent::OfferTakeback,
        Intent::AcceptTakeback,
        Intent::DeclineTakeback,
    ] {
        assert_eq!(
            game.apply(act(Color::White, intent)),
            Err(GameError::NotAgainstComputer)
        );
    }
}

#[test]
fn messages_change_nothing_of_the_play_and_the_last_five_are_kept() {
    let say = |by, text| act(by, Intent::Message { text });
    let mut game = Game::new(Position::start());
    game.apply(say(Color::Black, MessageText::GoodLuck))
        .expect("on the opponent's turn too");
    play_turn(&mut game, 0);
    play_turn(&mut game, 1);
    game.apply(act(Color::White, Intent::OfferDraw))
        .expect("a draw offer");
    game.apply(act(Color::White, Intent::OfferTakeback))
        .expect("a takeback request");
    let before = format!("{:?}", (game.position, &game.moves, &game.captures));
    let seq = game.seq;
    game.apply(say(Color::White, MessageText::Sorry))
        .expect("said");
    let now = format!("{:?}", (game.position, &game.moves, &game.captures));
    assert_eq!(now, before);
    assert_eq!(game.seq, seq + 1, "stored like any action");
    assert_eq!(game.draw_offer, Some(Color::White), "the offer stands");
    assert_eq!(
        game.takeback_offer,
        Some(Color::White),
        "the request stands"
    );
    assert_eq!(
        game.messages.last(),
        Some(&Message {
            by: Color::White,
            text: MessageText::Sorry,
            seq,
        })
    );
    assert!(!IntentKind::Message.plays_on());
    // A takeback leaves them; the end of the game does not stop them.
    game.apply(act(Color::Black, Intent::AcceptTakeback))
        .expect("granted");
    assert_eq!(game.messages.len(), 2);
    game.apply(act(Color::Black, Intent::Resign))
        .expect("resigns");
    for (n, &text) in MessageText::ALL.iter().enumerate() {
        let by = if n % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        game.apply(say(by, text)).expect("after the end too");
    }
    let kept: Vec<_> = game.messages.iter().map(|m| m.text).collect();
    assert_eq!(kept, MessageText::ALL[1..]);
    assert_eq!(game.messages.last().map(|m| m.seq), Some(game.seq - 1));
    let seat = ComputerSeat {
        color: Color::Black,
        level: Level::MIN,
    };
    let mut computer = Game::with_computer(Position::start(), Some(seat));
    assert_eq!(
        computer.apply(say(Color::White, MessageText::GoodLuck)),
        Err(GameError::NotAgainstComputer)
    );
}

/// Plays the first legal whole turn of the side to move at `at`.
fn play_turn_at(game: &mut Game, at: i64) {
    let by = game.position.turn();
    loop {
        let Some(step) = game.position.legal_steps().first().copied() else {
            break;
        };
        let intent = Intent::Step {
            from: step.from(),
            to: step.to(),
            kind: step.kind(),
        };
        game.apply_at(Action { by, intent }, at).expect("legal");
        if game.position.turn() != by || game.result.is_some() {
            return;
        }
        if game.position.can_end_turn() {
            game.apply_at(
                Action {
                    by,
                    intent: Intent::EndTurn,
                },
                at,
            )
            .expect("end");
            return;
        }
    }
}

#[test]
fn the_player_to_move_loses_on_time_once_their_clock_is_at_zero_and_not_before() {
    let control = TimeControl::real_time(1, 5).expect("within the limits");
    let mut game = Game::new(Position::start()).with_clock(Some(control));
    let flag = |by| Action {
        by,
        intent: Intent::Flag,
    };
    // The first turn of each is free: no clock runs.
    play_turn_at(&mut game, 1_000);
    assert_eq!(game.deadline(), None);
    play_turn_at(&mut game, 500_000);
    assert_eq!(game.deadline(), Some(560_000));
    // White plays after 20 s: 40 s left, 5 s added.
    play_turn_at(&mut game, 520_000);
    assert_eq!(game.deadline(), Some(580_000));
    let mover = game.position.turn();
    assert_eq!(mover, Color::Black);
    assert_eq!(
        game.clone().apply_at(flag(Color::White), 579_999),
        Err(GameError::TimeNotOut)
    );
    // Turns cannot be taken back with a clock.
    assert_eq!(
        game.clone().apply_at(
            Action {
                by: Color::White,
                intent: Intent::OfferTakeback
            },
            530_000
        ),
        Err(GameError::TimedGame)
    );
    game.apply_at(flag(Color::White), 580_000)
        .expect("time is out");
    assert_eq!(
        game.result,
        Some(GameResult {
            winner: Some(Color::White),
            reason: Reason::Time
        })
    );
    let clock = game.clock.expect("a clock");
    let left = clock.left_at(mover, 999_999);
    assert_eq!((left.white, left.black), (45_000, 0));
    assert_eq!(game.deadline(), None);
    assert_eq!(
        game.apply_at(flag(Color::White), 600_000),
        Err(GameError::GameOver)
    );
}

#[test]
fn a_game_without_a_clock_refuses_a_time_claim() {
    let mut game = Game::new(Position::start());
    assert_eq!(
        game.apply_at(
            Action {
                by: Color::White,
                intent: Intent::Flag
            },
            i64::MAX
        ),
        Err(GameError::NoClock)
    );
}

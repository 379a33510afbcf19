//! On a phone an embed's frame cannot show the stage and readable
//! narration at once, so they take turns: the story (the lesson's words at
//! reading size, in pages of many lines) or the stage (with the lesson's
//! buttons under it). The reader switches with two buttons; the stage comes
//! by itself when the scene plays (from the first, with `autoplay=1`) and
//! the story with every new page, step or answer. Wider frames show both
//! side by side and hide the switch (see the stylesheet's `.embed-turn`).

use yew::prelude::*;

/// What a phone's frame shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    Story,
    Stage,
}

impl Turn {
    /// The attribute the stylesheet lays the frame out by.
    pub fn id(self) -> &'static str {
        match self {
            Turn::Story => "story",
            Turn::Stage => "stage",
        }
    }
}

/// Where the reader is in the lesson: a change brings the story back.
pub type Place = Option<(usize, usize, usize, bool, bool)>;

/// The turn after a change: the story when the reader's place moved, the
/// stage when the scene started playing, else as it was.
pub fn next(turn: Turn, place_moved: bool, started_playing: bool) -> Turn {
    if started_playing {
        Turn::Stage
    } else if place_moved {
        Turn::Story
    } else {
        turn
    }
}

/// The turn a phone's frame shows, kept by the page: it follows the
/// lesson's `place` and whether the run is `playing` (see [`next`]), and
/// the switch's callback sets it.
#[hook]
pub fn use_turn(place: Place, playing: bool) -> (Turn, Callback<Turn>) {
    let turn = use_state_eq(|| Turn::Story);
    // (From nothing seen: a frame that opens onto a playing scene, a
    // snippet's `autoplay=1`, shows it playing.)
    let seen = use_mut_ref(|| (None, false));
    {
        let (last_place, was_playing) = *seen.borrow();
        let moved = last_place != place;
        // The lesson's first place counts as a start when it plays.
        let started = playing && (!was_playing || last_place.is_none());
        if moved || started || playing != was_playing {
            *seen.borrow_mut() = (place, playing);
            let after = next(*turn, moved, started);
            if after != *turn {
                turn.set(after);
            }
        }
    }
    let set = {
        let turn = turn.clone();
        Callback::from(move |t: Turn| turn.set(t))
    };
    (*turn, set)
}

#[derive(Properties, PartialEq)]
pub struct TurnSwitchProps {
    pub turn: Turn,
    pub on_turn: Callback<Turn>,
}

/// The two buttons that switch a phone's frame between story and stage.
#[function_component(TurnSwitch)]
pub fn turn_switch(props: &TurnSwitchProps) -> Html {
    let button = |t: Turn, label: &'static str| {
        let on = props.on_turn.clone();
        let pressed = props.turn == t;
        html! {
            <button class={classes!("turn", pressed.then_some("on"))} aria-pressed={pressed.to_string()}
                onclick={Callback::from(move |_| on.emit(t))} data-testid={format!("turn-{}", t.id())}>{ label }</button>
        }
    };
    html! {
        <div class="embed-turn" role="group" aria-label="Show the lesson's story or its stage">
            { button(Turn::Story, "Story") }
            { button(Turn::Stage, "Stage") }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stage_comes_when_the_scene_plays_and_the_story_with_a_new_place() {
        assert_eq!(next(Turn::Story, false, true), Turn::Stage);
        assert_eq!(next(Turn::Stage, true, false), Turn::Story);
        // A new step that starts playing at once shows it playing.
        assert_eq!(next(Turn::Story, true, true), Turn::Stage);
        assert_eq!(next(Turn::Stage, false, false), Turn::Stage);
        assert_eq!(next(Turn::Story, false, false), Turn::Story);
    }
}

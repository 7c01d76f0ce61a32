// @ts-check
// The shapes of Magical Kitties' view as the server sends it (systems/magical_kitties/view.py),
// for the type check of the page (nothing runs here).

/** A kitty's power and the features it has gained.
 * @typedef {{ name: string, features: string[] }} Power */

/** A problem of a kitty's human or of the hometown.
 * @typedef {{ id: string, text: string, rank: number }} Problem */

/** A choice made at a level-up.
 * @typedef {{ level: number, list: string, entry: string, detail: string | null }} LevelPick */

/** A level-up list and the entries the kitty may still pick from it.
 * @typedef {{ id: string, entries: string[] }} LevelList */

/**
 * A kitty with what the view adds: whether it is incapacitated, its highest attribute, the
 * XP its next level needs (null at the top) and the lists it may pick from.
 * @typedef {{ id: string, name: string, attributes: Record<string, number>, talents: string[],
 *   powers: Power[], flaw: string, human: { name: string, problems: Problem[] },
 *   treats_value: number, treats: number, free_treats: number, aua_limit: number, auas: number,
 *   injuries: number, injuries_this_scene: number, avoidable_injuries: number,
 *   power_bonus_used: boolean, bonus_dice: number, penalty_dice: number, xp: number,
 *   level: number, failures: number, picks: LevelPick[], incapacitated: boolean,
 *   highest_attribute: string, xp_needed: number | null, can_level_up: boolean,
 *   level_lists: LevelList[] }} Kitty
 */

/** A foe (a problem with Auas) and whether it is defeated.
 * @typedef {{ id: string, name: string, difficulty: number, aua_limit: number, auas: number,
 *   defeated: boolean }} Foe */

/** One entry of a tier's menu and who it targets.
 * @typedef {{ id: string, target: string }} MenuEntry */

/** The menu of a check's tier: who chooses, whether it is still open, its entries.
 * @typedef {{ id: string, chooser: string, open: boolean, entries: MenuEntry[] }} Menu */

/**
 * The last check with what the view adds: its pool, successes, which dice hit, the tier, its
 * menu and whether it may still be rerolled or accepted as a failure.
 * @typedef {{ number: number, kitty: string, attribute: string, talent: string | null,
 *   power: string | null, difficulty: number, foe: string | null,
 *   parts: Record<string, number>, dice: number[], rerolls: number, accepted: boolean,
 *   outcome: string | null, foe_auas: number, pool: number, successes: number,
 *   hits: boolean[], tier: number, menu: Menu | null, can_reroll: boolean,
 *   can_accept: boolean }} Check
 */

/** The table's options.
 * @typedef {{ creation_attributes: number[], creation_talents: number, creation_powers: number,
 *   starting_treats: number, starting_aua_limit: number, default_difficulty: number,
 *   [name: string]: unknown }} Options */

/**
 * What every viewer sees of a Magical Kitties table.
 * @typedef {{ system: string, options: Options,
 *   episode: { number: number, running: boolean }, scene: { number: number, running: boolean },
 *   kitties: Kitty[], foes: Foe[], hometown: Problem[], checks: number,
 *   last_check: Check | null }} View
 */

/** The table page's context of a Magical Kitties table.
 * @typedef {import("../../types.js").TableContext<View>} Ctx */

/** An input's or a select's event (its target is the control).
 * @typedef {Event & { target: HTMLInputElement }} FieldEvent */

export {};

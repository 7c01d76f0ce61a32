// @ts-check
// The shapes of HeXXen's view as the server sends it (systems/hexxen/view.py), for the type
// check of the page (nothing runs here).

/** LeP or Hex: where it stands and its maximum.
 * @typedef {{ current: number, maximum: number, floor: number }} Track */

/** The bonus and malus a check of the person gets now.
 * @typedef {{ bonus: number, malus: number }} Modifier */

/** What hunters and NSC share in the view: effects by kind (their level), budgets left, the
 * check modifier, the square on the map, the binding and whether LeP are at 0.
 * @typedef {{ id: string, name: string, lep: Track, ini: number, bonus: number, malus: number,
 *   effects: Record<string, number>, budgets: Record<string, number>,
 *   check_modifier: Modifier, position: string | null, bound: boolean, bound_with: string[],
 *   defeated: boolean, secret?: boolean }} Person */

/** A hunter (a player's character) as the view shows it.
 * @typedef {Person & { attributes: Record<string, number>, skills: Record<string, number>,
 *   skill_attributes: Record<string, string>, armour: number, unempfindlichkeit: number,
 *   reflexe: number, ideen: number, coups: number, esprit: number,
 *   ap_per_round: number }} Hunter */

/** Special dice an attack rolls beside its own (with what each gives).
 * @typedef {{ die: string, count: number, effect: string | null, tag: string | null,
 *   source: string | null, gives: unknown }} DiceUse */

/** An attack line of an NSC's Wertekasten.
 * @typedef {{ name: string, range: string[], attack: number, damage: number, blood: number,
 *   elixir: number, handlungen: Record<string, number>, dice: DiceUse[],
 *   dice_rolled: DiceUse[] }} AttackLine */

/** A power line of an NSC's Wertekasten, with how many it may target.
 * @typedef {{ name: string, range: string[], dice: number, against: string,
 *   per_difference: { amount: number, effect: string, tag: string | null, die: string | null },
 *   hex: number, hex_per_target: boolean, note: string | null,
 *   handlungen: Record<string, number>, max_targets: number | null }} PowerLine */

/** A property of an NSC and whether the rules apply it.
 * @typedef {{ text: string, name: string, count: number, die: string | null,
 *   effect: string | null, tag: string | null, applied: boolean,
 *   [key: string]: unknown }} Trait */

/** An NSC (the GM's) as the view shows it.
 * @typedef {Person & { kind: string, level: number, hex: Track, hex_per_jz: boolean,
 *   lep_per_jz: boolean, handlungen: number, widernatuerlich: boolean, properties: string[],
 *   attacks: AttackLine[], powers: PowerLine[],
 *   attributes: Record<string, number>, pool: number | null, hex_growth: number,
 *   traits: Trait[] }} Npc */

/** One defence a hunter may choose against an attack, and why not where it is refused.
 * @typedef {{ defense: string, skill: string | null, dice: number, ap: number,
 *   allowed: boolean, reason: string | null, [key: string]: unknown }} DefenseChoice */

/** An attack an NSC declared, waiting for the hunter's defence.
 * @typedef {{ npc: string, attack: string, target: string, bonus: number, malus: number,
 *   dice: number, damage: number, npc_modifier: Modifier,
 *   choices: DefenseChoice[] }} Pending */

/** What the next INI-0 phase does to one ongoing effect.
 * @typedef {{ target: string, effect: string, level: number, amount: number, decay: string,
 *   roll?: string, dice?: number, net?: number, removed?: Record<string, string> }} Ini0 */

/** What the next INI-0 phase heals by one NSC's property.
 * @typedef {{ npc: string, property: string, die: string, dice: number,
 *   chances: Record<string, string> }} Healing */

/** The fight: round, order, whose turn, the Jäger count, the NSC's legal commands (GM), the
 * attack waiting, the INI-0 phase to come.
 * @typedef {{ round: number, order: string[], current: string | null, jz: number,
 *   legal: Record<string, string>[], pending: Pending | null, ini0: Ini0[],
 *   healing: Healing[] }} Fight */

/** The table's options.
 * @typedef {{ max_pool: number, stars_count: boolean, discovery: string, edition: number,
 *   max_janus: number, modifier_cap: string, base_ap: number, ap_minus_armour: boolean,
 *   defense_ap: number, hit_threshold: number, [name: string]: unknown }} Options */

/**
 * What a viewer sees of a HeXXen table; `faces` gives each die letter's six faces (symbol
 * counts, or the Elixier number).
 * @typedef {{ system: string, options: Options, hunters: Hunter[], npcs: Npc[],
 *   fight: Fight | null, map: { width: number, height: number },
 *   last: { kind: string, actor: string, detail: Record<string, any> } | null,
 *   checks: number, skill_list: Record<string, any>,
 *   faces: Record<string, (number | Record<string, number>)[]> }} View
 */

/** An input's or a select's event (its target is the control).
 * @typedef {Event & { target: HTMLInputElement }} FieldEvent */

export {};

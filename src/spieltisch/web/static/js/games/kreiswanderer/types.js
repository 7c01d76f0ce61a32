// @ts-check
// The shapes of Kreiswanderer's view as the server sends it (systems/kreiswanderer/view.py),
// for the type check of the page (nothing runs here).

/** A track (TP or MP): where it stands and its maximum.
 * @typedef {{ current: number, maximum: number, floor: number }} Track */

/** A marking: its name, its value and what it names (a damage type, a species …).
 * @typedef {{ name: string, value: number | null, detail: string | null }} Marking */

/** A skill's depth and value.
 * @typedef {{ depth: number, value: number }} Skill */

/** A weapon as the sheet holds it.
 * @typedef {{ name: string, skill: string, attribute: string, damage_bonus: number,
 *   fuehrungsschwelle: number, durchdringend: number, damage_type: string,
 *   markings: Marking[], wielded: boolean }} Weapon */

/** A Sonderfertigkeit: its bonus, the skills it helps and the markings it manipulates (its
 * depth: how many; a being's carry it, a sheet's not).
 * @typedef {{ bonus: number, skills: string[], markings: string[], depth?: number }} Sonderfertigkeit */

/** A Haltung: what it changes while active.
 * @typedef {{ modifiers: Record<string, number> }} Haltung */

/** A lasting effect on a being (its source hidden from who may not see it).
 * @typedef {{ id: number, kind: string, target: string, level: number, source: string | null,
 *   duration: { phase: string | null, who: string | null, count: number }, remaining: number,
 *   armed: boolean }} Effect */

/**
 * A being's sheet as the form to create it takes it (track maxima, not current values).
 * @typedef {{ name: string, side: string, attributes: Record<string, number>, hp: number,
 *   mp: number, magic_cost: number, ap: number | null, species: string | null,
 *   native_language: string | null, skills: Record<string, Skill>, weapons: Weapon[],
 *   markings: Marking[], resistances: Record<string, number>,
 *   sonderfertigkeiten: Record<string, Sonderfertigkeit>, begabungen: string[],
 *   haltungen: Record<string, Haltung>, [key: string]: unknown }} Sheet
 */

/**
 * A being as a viewer sees it.
 * @typedef {{ id: string, name: string, side: string, secret: boolean,
 *   attributes: Record<string, number>, tp: Track, mp: Track, markings: Marking[],
 *   skills: Record<string, Skill>, weapons: Weapon[],
 *   sonderfertigkeiten: Record<string, Sonderfertigkeit>, begabungen: string[],
 *   haltungen: Record<string, Haltung>, active_haltungen: string[], magic_cost: number,
 *   defeated: boolean, fallen: boolean, ap_per_round: string, species: string | null,
 *   native_language: string | null, held_skills: Record<string, Skill>, burning: boolean,
 *   effects: Effect[], sheet: Sheet }} Being
 */

/** An action being paid for in action points (AP as decimal text).
 * @typedef {{ id: number, action: string, budget: string, cost: string, paid: string,
 *   detail: Record<string, any> }} PendingAction */

/** What a hit of one weapon on one foe would meet: thresholds, resistance, protection, extras.
 * @typedef {{ weapon: string, target: string, thresholds: number, resistance: number,
 *   protection: number, extra: { damage_type: string, value: number, damage: number }[],
 *   ignites: boolean }} AttackPlan */

/**
 * A being in the fight: its dice, dodge, initiative, AP left, actions pending and ready, the
 * defender's parts of an attack on it, its attack plans and its dodge choices.
 * @typedef {{ id: string, dice: number[], dodge: number | null, dodge_bonus: number,
 *   initiative: number | null, disoriented: boolean, ap: string | null,
 *   pending: PendingAction[], ready: PendingAction[],
 *   defense: { dodge: number, defensive: number, thresholds: number } | null,
 *   hits: AttackPlan[], dodge_choices: { skill: string, bonus: number }[], burning: boolean,
 *   effects: Effect[], fallen: boolean, joining: boolean, ap_per_round: string }} Combatant
 */

/** The fight: whether it started, the round, the acting order, who fell, whose turn it is.
 * @typedef {{ started: boolean, round: number | null, order: string[], fallen: string[],
 *   current: string | null, combatants: Combatant[],
 *   last_ticks: { being: string, damage: number }[] }} Fight */

/** An accumulated check under way (or finished or abandoned).
 * @typedef {{ id: string, being: string, attribute: string, skill: string,
 *   talent_value: number, target: number, rolls: number | null, quality: number | null,
 *   done_rolls: number, total: number, finished: boolean, abandoned: boolean }} Accumulation */

/** A skill of the catalogue: its depth, attribute and the species it belongs to.
 * @typedef {{ depth: number, attribute: string | null, species: string[] }} CatalogueSkill */

/** The table's options (`haltung_switch_ap` as decimal text).
 * @typedef {{ edition: number, attributes: string[], default_target: number,
 *   tie_goes_to: string, agility: string, dodge_skill: string, dodge_attribute: string,
 *   ap_per_round: number, haltung_switch_ap: string, max_explosions: number,
 *   max_modifier: number, accumulation: string, fuehrungsschwelle: string,
 *   [name: string]: unknown }} Options */

/**
 * What a viewer sees of a Kreiswanderer table.
 * @typedef {{ system: string, options: Options, beings: Being[],
 *   accumulations: Accumulation[], catalogue: Record<string, CatalogueSkill>,
 *   fight: Fight | null, checks: number, known_markings: Record<string, string[]> }} View
 */

/** An input's or a select's event (its target is the control).
 * @typedef {Event & { target: HTMLInputElement }} FieldEvent */

export {};

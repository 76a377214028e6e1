/**
 * Words the local form filler (../local/form-values.ts) reads statements and option boxes with, by meaning
 * rather than by language: a box printed "Deutsch" is ticked by "I speak German", a list option
 * "Woman" chosen by "je suis une femme". Lower case, accents off.
 *
 * - `OPTION_WORDS`: each concept (the key, one word) and the words that name it in the languages
 *   Quire reads. They are rewritten to the concept in labels, options and instructions alike.
 * - `STATEMENT_WORDS`: verbs and pronouns of a statement about oneself ("I HAVE a driving licence",
 *   "I WORK AS a backend developer"): they say nothing about which option is meant.
 * - `NEGATIONS`: words that turn a statement around ("I do NOT have …"): no box is ticked from it.
 * - `SIGNING_VERBS`: words before the place and date a document is signed ("SIGNÉ à Strassen le …",
 *   "FAIT à Lyon le …", "signed in Brussels on …").
 * - `DATE_LEAD_WORDS`: a word that, ending a field's label, means a date follows ("Fait à … LE",
 *   "depuis LE", "Geboren AM").
 * - `DATED_WORDS`: words between what a sentence names and its date ("fattura nr. 27 DEL 15/03/2025").
 * - `PASSIVE_AGENTS`, `PARTICIPLE_ENDINGS`: "… est tenue PAR la Fiduciaire Kremer", "paid BY Acme": a
 *   value said as the agent of a past participle is what comes after the agent word.
 * - `OPTION_POSITIONS`: words that pick one of a row's buttons by where it is ("the RIGHT-HAND button
 *   in the row of …", "le bouton de GAUCHE"), for options printed alike.
 *
 * To extend: add a word to a concept, or a concept. Measure with `npm run bench -- forms`.
 */

export const OPTION_WORDS: Record<string, string[]> = {
  english: ['english', 'anglais', 'englisch', 'engels', 'ingles', 'inglese'],
  german: ['german', 'deutsch', 'allemand', 'duits', 'aleman', 'tedesco', 'alemao'],
  french: ['french', 'francais', 'franzosisch', 'frans', 'frances', 'francese'],
  spanish: ['spanish', 'espagnol', 'spanisch', 'spaans', 'espanol', 'spagnolo', 'espanhol', 'castellano'],
  italian: ['italian', 'italien', 'italienisch', 'italiaans', 'italiano'],
  portuguese: ['portuguese', 'portugais', 'portugiesisch', 'portugees', 'portugues', 'portoghese'],
  dutch: ['dutch', 'neerlandais', 'niederlandisch', 'nederlands', 'holandes', 'olandese'],
  luxembourgish: ['luxembourgish', 'luxembourgeois', 'luxemburgisch', 'luxemburgs', 'letzebuergesch'],
  russian: ['russian', 'russe', 'russisch', 'russisch', 'ruso', 'russo'],
  chinese: ['chinese', 'chinois', 'chinesisch', 'chinees', 'chino', 'cinese', 'chines'],
  arabic: ['arabic', 'arabe', 'arabisch', 'arabo'],
  female: ['woman', 'female', 'femme', 'feminin', 'feminine', 'weiblich', 'vrouw', 'vrouwelijk', 'mujer', 'femenino', 'donna', 'femminile', 'mulher', 'feminino'],
  male: ['man', 'male', 'homme', 'masculin', 'masculine', 'mannlich', 'mannelijk', 'hombre', 'masculino', 'uomo', 'maschile', 'homem'],
  married: ['married', 'marie', 'mariee', 'verheiratet', 'getrouwd', 'casado', 'casada', 'sposato', 'sposata'],
  single: ['single', 'unmarried', 'celibataire', 'ledig', 'ongehuwd', 'soltero', 'soltera', 'celibe', 'nubile', 'solteiro', 'solteira'],
  divorced: ['divorced', 'divorce', 'divorcee', 'geschieden', 'gescheiden', 'divorciado', 'divorciada', 'divorziato', 'divorziata'],
  widowed: ['widowed', 'widow', 'widower', 'veuf', 'veuve', 'verwitwet', 'weduwe', 'weduwnaar', 'viudo', 'viuda', 'vedovo', 'vedova', 'viuvo', 'viuva'],
};

export const STATEMENT_WORDS: string[] = [
  // en
  'i', 'im', 'me', 'am', 'be', 'been', 'was', 'were', 'have', 'has', 'had', 'ive', 'hold', 'holds', 'held', 'work', 'works', 'worked', 'working', 'live', 'lives', 'living', 'own', 'owns', 'possess', 'got', 'as', 'currently', 'also', 'only', 'do', 'does',
  // fr
  'je', 'suis', 'ai', 'ete', 'etais', 'travaille', 'habite', 'vis', 'possede', 'detiens', 'titulaire', 'comme', 'egalement', 'aussi', 'bien',
  // de
  'bin', 'habe', 'hatte', 'war', 'arbeite', 'wohne', 'lebe', 'besitze', 'als', 'auch',
  // nl
  'ik', 'ben', 'heb', 'werk', 'woon', 'ook',
  // es, it, pt
  'soy', 'estoy', 'tengo', 'trabajo', 'vivo', 'sono', 'ho', 'lavoro', 'abito', 'sou', 'estou', 'tenho', 'moro', 'como', 'come',
];

export const NEGATIONS: string[] = ['not', 'no', 'dont', 'doesnt', 'never', 'without', 'neither', 'nor', 'ne', 'pas', 'jamais', 'aucun', 'aucune', 'sans', 'nicht', 'kein', 'keine', 'keinen', 'nie', 'ohne', 'niet', 'geen', 'nooit', 'zonder', 'nunca', 'sin', 'non', 'senza', 'nao', 'sem'];

export const SIGNING_VERBS: string[] = [
  'signed', 'sign', 'signing', 'done', 'made', 'executed', 'dated',
  'signe', 'signee', 'signes', 'signons', 'fait', 'faite', 'fais', 'etabli', 'etablie',
  'unterschrieben', 'unterschreibe', 'unterzeichnet', 'gezeichnet', 'ausgestellt',
  'ondertekend', 'onderteken', 'gedaan', 'opgemaakt',
  'firmado', 'firmada', 'firmo', 'hecho', 'firmato', 'firmata', 'firmo', 'fatto', 'assinado', 'assinada', 'assino', 'feito',
];

export const DATE_LEAD_WORDS: string[] = ['le', 'am', 'den', 'el', 'op'];

/** Words between a document's number and its date ("Invoice no. 27 OF 15/03/2025", "fattura nr. 27 DEL …", "reçu DATÉ DU …"). */
export const DATED_WORDS: string[] = ['of', 'dated', 'du', 'date du', 'daté du', 'datée du', 'del', 'della', 'vom', 'datiert vom', 'van', 'gedateerd', 'de', 'fechado el', 'de fecha', 'do', 'datado de'];

/**
 * A payment term's sentence that gives the due date after an "until" word: "Zahlbar innerhalb 30 Tagen
 * netto BIS 04.04.2018", "Payable within 30 days, BY 15/03/2025", "À payer AVANT LE 12/12/2024". The
 * line says what is payable (PAYABLE_WORDS), the date follows an UNTIL_WORDS phrase, and a line that
 * names a discount (an early payment's deadline, "Zahlbar mit 2% Skonto bis …") gives none.
 */
export const PAYABLE_WORDS: string[] = ['payable', 'pay', 'payment', 'zahlbar', 'zahlung', 'payer', 'regler', 'reglement', 'betalen', 'betaling', 'pagar', 'pagadero', 'pago', 'pagare', 'pagabile', 'pagamento'];
export const UNTIL_WORDS: string[] = ['by', 'until', 'before', 'no later than', 'bis', 'bis zum', 'spätestens', 'avant le', 'avant', 'au plus tard le', 'jusqu au', 'voor', 'uiterlijk', 'antes del', 'antes de', 'hasta el', 'entro il', 'entro', 'até'];
export const DISCOUNT_WORDS: string[] = ['discount', 'skonto', 'escompte', 'remise', 'korting', 'descuento', 'sconto', 'desconto'];

/**
 * Words a form calls the person filling it in ("SALARIÉ(E) nom", "Applicant's name"): a field that says
 * so is the first choice for what the writer says of themself ("my name is …").
 */
export const SELF_WORDS: string[] = ['salarie', 'salariee', 'assure', 'assuree', 'employee', 'applicant', 'taxpayer', 'declarant', 'declarante', 'demandeur', 'demandeuse', 'requerant', 'requerante', 'antragsteller', 'antragstellerin', 'arbeitnehmer', 'arbeitnehmerin', 'werknemer', 'aanvrager', 'solicitante', 'richiedente', 'requerente'];

/**
 * Where a button is among the buttons of one row (left, right) or one column (top, bottom), in the
 * languages Quire reads; phrases of one or two words, accents off. A row of options printed alike is
 * named by its text and the button by one of these ("In the 'Radio button, selected' row, the left-hand
 * button").
 */
export const OPTION_POSITIONS: Record<'left' | 'right' | 'top' | 'bottom', string[]> = {
  left: ['left', 'left hand', 'leftmost', 'gauche', 'links', 'linker', 'linke', 'linken', 'linkse', 'izquierda', 'izquierdo', 'sinistra', 'sinistro', 'esquerda', 'esquerdo'],
  right: ['right', 'right hand', 'rightmost', 'droite', 'rechts', 'rechter', 'rechte', 'rechten', 'rechtse', 'derecha', 'derecho', 'destra', 'destro', 'direita', 'direito'],
  top: ['top', 'upper', 'topmost', 'haut', 'oben', 'obere', 'oberen', 'bovenste', 'superior', 'superiore'],
  bottom: ['bottom', 'lower', 'bottommost', 'bas', 'unten', 'untere', 'unteren', 'onderste', 'inferior', 'inferiore'],
};

/** Words that introduce the agent of a passive ("tenue PAR", "kept BY", "geführt VON", "betaald DOOR"). */
export const PASSIVE_AGENTS: string[] = ['par', 'by', 'von', 'door', 'por', 'da', 'dal', 'dalla', 'pelo', 'pela'];

/** How past participles end in the languages Quire reads ("tenue", "réglées", "kept" excepted: "-ed", "geführt"). */
export const PARTICIPLE_ENDINGS: string[] = ['é', 'ée', 'és', 'ées', 'u', 'ue', 'us', 'ues', 'i', 'ie', 'is', 'ies', 'it', 'ite', 'ed', 'en', 'ado', 'ada', 'ados', 'adas', 'ido', 'ida', 'idos', 'idas', 'ato', 'ata', 'ati', 'ate', 'uto', 'uta', 'ito', 'ita', 'd', 't'];

/**
 * Numbers written out, by language, accents off ("cent cinquante euros", "one hundred and fifty
 * dollars"): a run of them (two words or more, one a number) is a value, the amount in words a cheque
 * or a receipt asks for. Compounds ("einhundertfünfzig", "centocinquanta") are read as runs of these
 * words written together. The currency and linking words may join a run, never make one alone.
 */
export const NUMBER_WORDS: Record<string, string[]> = {
  en: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred', 'thousand', 'million'],
  fr: ['zero', 'un', 'une', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'onze', 'douze', 'treize', 'quatorze', 'quinze', 'seize', 'vingt', 'vingts', 'trente', 'quarante', 'cinquante', 'soixante', 'cent', 'cents', 'mille', 'million', 'millions'],
  de: ['null', 'eins', 'ein', 'eine', 'zwei', 'drei', 'vier', 'funf', 'sechs', 'sieben', 'acht', 'neun', 'zehn', 'elf', 'zwolf', 'zwanzig', 'dreissig', 'vierzig', 'funfzig', 'sechzig', 'siebzig', 'achtzig', 'neunzig', 'hundert', 'tausend', 'million', 'millionen'],
  nl: ['nul', 'een', 'twee', 'drie', 'vier', 'vijf', 'zes', 'zeven', 'acht', 'negen', 'tien', 'elf', 'twaalf', 'twintig', 'dertig', 'veertig', 'vijftig', 'zestig', 'zeventig', 'tachtig', 'negentig', 'honderd', 'duizend', 'miljoen'],
  es: ['cero', 'uno', 'una', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez', 'once', 'doce', 'trece', 'catorce', 'quince', 'dieciseis', 'veinte', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa', 'cien', 'ciento', 'cientos', 'doscientos', 'trescientos', 'quinientos', 'mil', 'millon', 'millones'],
  it: ['zero', 'uno', 'una', 'due', 'tre', 'quattro', 'cinque', 'sei', 'sette', 'otto', 'nove', 'dieci', 'undici', 'dodici', 'venti', 'trenta', 'quaranta', 'cinquanta', 'sessanta', 'settanta', 'ottanta', 'novanta', 'cento', 'mille', 'mila', 'milione', 'milioni'],
  pt: ['zero', 'um', 'uma', 'dois', 'duas', 'tres', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove', 'dez', 'onze', 'doze', 'vinte', 'trinta', 'quarenta', 'cinquenta', 'sessenta', 'setenta', 'oitenta', 'noventa', 'cem', 'cento', 'duzentos', 'trezentos', 'quinhentos', 'mil', 'milhao', 'milhoes'],
};

/** Words that may join a number written out: currencies, their cents, "and". */
export const NUMBER_JOINING_WORDS: string[] = ['and', 'et', 'und', 'en', 'y', 'e', 'euro', 'euros', 'dollar', 'dollars', 'pound', 'pounds', 'franc', 'francs', 'cent', 'cents', 'centime', 'centimes', 'centimo', 'centimos', 'centesimi', 'centavos', 'rappen', 'pfennig'];

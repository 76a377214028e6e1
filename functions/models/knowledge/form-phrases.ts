/**
 * How people say what goes in a form, by language: the phrases the local form filler
 * (../local/form-values.ts) reads instructions with. Lower case; an apostrophe matches ' and ’; a space
 * matches any run of spaces. Accents count in phrases ("né le"), not in field words.
 *
 * - `copulas`: what links a label to its value ("my name IS Jane", "mes cotisations SONT DE 6 612,48").
 *   Longer phrases first is not needed: the longest one at the earliest place wins.
 * - `determiners`: words a label may start with that say nothing about the field ("my", "la", "mein").
 * - `anaphors`: words that start a clause about the person or item named just before ("HIS name is …",
 *   "ELLE est née le …"): the clause gets that item's ordinal (the 2nd dependant's name).
 * - `templates`: whole clauses; ` => label` after one names the field when the clause does not
 *   ("i am {value} tall => height"), which may name it with the clause's {label} ("with {value} years of
 *   {label} => years of {label}": the field counts years). `{label}` is the field's words, `{value}` the value, `{name}` a person's
 *   full name (split into given and family names), `{birth}` a date of birth, `{address}` where one
 *   lives (split into street, number, postcode, city, country), `{tick}` a box to tick. A template
 *   matches a whole clause, except those of `{name}`, `{birth}` and `{address}`, which may follow other
 *   words ("Hello, I'M Jane", "il est NÉ LE 03/11/1950").
 * - `links`: words between a label and a value given without a verb ("frais de déplacement DE 1 188,00").
 * - `conjunctions`: words that may join two clauses ("my name is Jane AND my city is Paris").
 * - `adjuncts`: words that add a detail before a number ("a developer WITH 9 years of experience"): a
 *   clause of its own.
 * - `requests`: polite words a request starts with ("COULD YOU tick …", "POUVEZ-VOUS …").
 * - `subjects`: the writer as subject ("I have a Master's degree"): after a comma, a new statement.
 * - `ranges`: the words around a range of dates ("DU 01/01/2019 AU 31/12/2019"): two values, named by
 *   those words (a field labelled "du" gets the start, "au" the end).
 * - `ordinals`: words that number an item (the SECOND owner, la DEUXIÈME ligne); the word for a field's
 *   continuation ("Adresse (SUITE)", "Address (CONTINUED)") is its 2nd line.
 * - `relations`: nouns for a person introduced by their link to the writer ("my WIFE, Jane Doe, born …"):
 *   each one introduced is the next item of a list (the 1st dependant, the 2nd …).
 * - `functionWords`: words that say nothing about which field is meant.
 *
 * To extend: add a language's phrases, or a phrase to a language. Measure with `npm run bench -- forms`.
 */

export interface FormPhrases {
  copulas: string[];
  determiners: string[];
  anaphors: string[];
  templates: string[];
  links: string[];
  conjunctions: string[];
  /** Words that add a detail to what was said, before a number ("a developer WITH 9 years of experience"). */
  adjuncts: string[];
  /** Polite words a request starts with ("COULD YOU tick …"): they say nothing. */
  requests: string[];
  /** The writer as subject ("I have …", "je suis …"): after a comma, a new statement starts, not more of a value. */
  subjects: string[];
  /** The words around a range of dates ("du … au", "from … to"): two values, its start and its end. */
  ranges: Array<[string, string]>;
  ordinals: Record<string, number>;
  relations: string[];
  functionWords: string[];
}

export const FORM_PHRASES: Record<string, FormPhrases> = {
  en: {
    copulas: ['is', 'are', 'should be', 'will be', 'must be', 'shall be', 'equals', 'amounts to', 'is set to', 'reads'],
    determiners: ['the', 'my', 'our', 'his', 'her', 'its', 'their', 'a', 'an', 'your'],
    anaphors: ['his', 'her', 'its', 'their', 'he', 'she', 'they', 'it'],
    templates: [
      'set {label} to {value}',
      'change {label} to {value}',
      'fill {label} with {value}',
      'put {value} in {label}',
      'in {label} "{value}"',
      'put {value} into {label}',
      'write {value} in {label}',
      'write {value} into {label}',
      'enter {value} in {label}',
      'enter {value} as {label}',
      'use {value} as {label}',
      'use {value} for {label}',
      '{label} gets {value}',
      '{label} should read {value}',
      '{label} should say {value}',
      'tick {tick}',
      'check {tick}',
      'select {tick}',
      'mark {tick}',
      'my name is {name}',
      "i'm {name}",
      'i am {name}',
      'i am called {name}',
      'this is {name}',
      'born on {birth}',
      'born {birth}',
      'i live at {address}',
      'i live in {address}',
      'living at {address}',
      'lives at {address}',
      'residing at {address}',
      'resides at {address}',
      'lives in {address}',
      'living in {address}',
      'my address is {address}',
      'i am {value} tall => height',
      "i'm {value} tall => height",
      'i have {value} years of {label} => years of {label}',
      'have {value} years of {label} => years of {label}',
      'with {value} years of {label} => years of {label}',
    ],
    links: ['of', 'at'],
    conjunctions: ['and', 'also', 'as well as', 'while', 'then'],
    adjuncts: ['with'],
    requests: ['please', 'could you please', 'could you', 'can you please', 'can you', 'would you please', 'would you', 'kindly'],
    subjects: ['i', 'we'],
    ranges: [['from', 'to'], ['from', 'until'], ['between', 'and']],
    ordinals: { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, other: 2, continued: 2 },
    relations: ['wife', 'husband', 'spouse', 'partner', 'son', 'daughter', 'child', 'father', 'mother', 'brother', 'sister', 'uncle', 'aunt', 'nephew', 'niece', 'grandfather', 'grandmother', 'grandson', 'granddaughter', 'cousin', 'stepson', 'stepdaughter'],
    functionWords: ['the', 'my', 'of'],
  },
  fr: {
    copulas: ['est', 'sont', 'est de', 'sont de', "s'élève à", "s'élèvent à", 'se monte à', 'se montent à', 'vaut', 'valent', 'sera', 'seront', 'doit être', 'égale', 'correspond à'],
    determiners: ['le', 'la', 'les', "l'", 'mon', 'ma', 'mes', 'son', 'sa', 'ses', 'notre', 'nos', 'leur', 'leurs', 'un', 'une', 'votre', 'vos', 'du', 'de la', 'des'],
    anaphors: ['son', 'sa', 'ses', 'il', 'elle', 'leur', 'leurs', 'ils', 'elles'],
    templates: [
      'mettre {value} dans {label}',
      'dans {label} "{value}"',
      'mettez {value} dans {label}',
      'inscrire {value} dans {label}',
      'inscrivez {value} dans {label}',
      'écrire {value} dans {label}',
      'écrivez {value} dans {label}',
      'indiquer {value} comme {label}',
      'indiquez {value} comme {label}',
      'remplir {label} avec {value}',
      'remplissez {label} avec {value}',
      'cocher {tick}',
      'cochez {tick}',
      'cocher la case {tick}',
      'cochez la case {tick}',
      "je m'appelle {name}",
      'je me nomme {name}',
      'mon nom est {name}',
      'je suis {name}',
      'moi, {name}',
      'né le {birth}',
      'née le {birth}',
      'né(e) le {birth}',
      'née le {birth}',
      "j'habite au {address}",
      "j'habite à {address}",
      "j'habite {address}",
      'je réside au {address}',
      'je réside à {address}',
      'je demeure au {address}',
      'domicilié au {address}',
      'domiciliée au {address}',
      'habite au {address}',
      'habite à {address}',
      'habite {address}',
      'réside au {address}',
      'réside à {address}',
      'demeurant au {address}',
      'demeurant à {address}',
      'domicilié à {address}',
      'domiciliée à {address}',
      'mon adresse est {address}',
      'je mesure {value} => taille',
      "j'ai {value} ans d'{label} => années d'{label}",
      "j'ai {value} années d'{label} => années d'{label}",
      "avec {value} ans d'{label} => années d'{label}",
      "avec {value} années d'{label} => années d'{label}",
    ],
    links: ['de', "d'", 'du', 'des'],
    conjunctions: ['et', 'ainsi que', 'puis', 'mais'],
    adjuncts: ['avec'],
    requests: ['merci de', "s'il vous plaît", 'pouvez-vous', 'pourriez-vous', 'veuillez'],
    subjects: ['je', "j'", 'nous'],
    ranges: [['du', 'au'], ['de', 'à'], ['depuis le', 'jusqu\'au']],
    ordinals: { premier: 1, première: 1, premiere: 1, deuxième: 2, deuxieme: 2, second: 2, seconde: 2, troisième: 3, troisieme: 3, quatrième: 4, quatrieme: 4, cinquième: 5, cinquieme: 5, suite: 2 },
    relations: ['épouse', 'époux', 'conjoint', 'conjointe', 'mari', 'femme', 'compagnon', 'compagne', 'partenaire', 'concubin', 'concubine', 'fils', 'fille', 'enfant', 'père', 'mère', 'frère', 'sœur', 'soeur', 'oncle', 'tante', 'neveu', 'nièce', 'grand-père', 'grand-mère', 'petit-fils', 'petite-fille', 'cousin', 'cousine', 'beau-père', 'belle-mère', 'beau-fils', 'belle-fille'],
    functionWords: ['le', 'la', 'les', 'l', 'de', 'd', 'des', 'et', 'ou', 'un', 'une', 'mon', 'ma', 'mes', 'son', 'sa', 'ses', 'notre', 'votre', 'vos', 'leur', 'pour', 'par', 'avec', 'dans', 'sur', 'en', 'à', 'a', 'est', 'sont', 'qui', 'que', 'je', 'j', 'il', 'elle', 'ce', 'cette', 'se', 's', 'ne', 'pas', 'suivi', 'y', 'lieu', 'voir', 'notice'],
  },
  de: {
    copulas: ['ist', 'sind', 'lautet', 'lauten', 'beträgt', 'betragen', 'soll sein', 'wird'],
    determiners: ['der', 'die', 'das', 'den', 'dem', 'des', 'mein', 'meine', 'meinen', 'meiner', 'sein', 'seine', 'ihr', 'ihre', 'unser', 'unsere', 'ein', 'eine', 'als'],
    anaphors: ['sein', 'seine', 'ihr', 'ihre', 'er', 'sie', 'es'],
    templates: [
      'setze {label} auf {value}',
      'trage {value} als {label} ein',
      'tragen sie {value} als {label} ein',
      'bitte {value} als {label} eintragen',
      'als {label} bitte {value} eintragen',
      'als {label} {value} eintragen',
      'als {label} bitte {value}',
      'als {label} den {value} eintragen',
      'als {label} den {value}',
      'als {label} {value}',
      'schreibe {value} in {label}',
      '{tick} ankreuzen',
      'kreuze {tick} an',
      'ich heiße {name}',
      'ich heisse {name}',
      'mein name ist {name}',
      'ich bin {name}',
      'geboren am {birth}',
      'geb. am {birth}',
      'ich wohne in der {address}',
      'ich wohne im {address}',
      'ich wohne in {address}',
      'ich wohne am {address}',
      'wohnhaft in der {address}',
      'wohnhaft in {address}',
      'wohnt in der {address}',
      'wohnt im {address}',
      'wohnt in {address}',
      'wohnt am {address}',
      'wohnhaft im {address}',
      'wohnhaft am {address}',
      'meine adresse ist {address}',
      'meine anschrift ist {address}',
      'ich bin {value} groß => größe',
      'ich bin {value} gross => größe',
    ],
    links: ['von'],
    conjunctions: ['und', 'sowie', 'dann'],
    adjuncts: ['mit'],
    requests: ['bitte', 'könnten sie', 'können sie', 'kannst du'],
    subjects: ['ich', 'wir'],
    ranges: [['vom', 'bis'], ['von', 'bis'], ['ab', 'bis']],
    ordinals: { erste: 1, erster: 1, ersten: 1, zweite: 2, zweiter: 2, zweiten: 2, dritte: 3, dritter: 3, dritten: 3, vierte: 4, fünfte: 5, fortsetzung: 2 },
    relations: ['ehefrau', 'ehemann', 'frau', 'mann', 'ehepartner', 'ehepartnerin', 'partner', 'partnerin', 'sohn', 'tochter', 'kind', 'vater', 'mutter', 'bruder', 'schwester', 'onkel', 'tante', 'neffe', 'nichte', 'großvater', 'großmutter', 'enkel', 'enkelin', 'cousin', 'cousine'],
    functionWords: ['der', 'die', 'das', 'den', 'dem', 'des', 'und', 'oder', 'ein', 'eine', 'mein', 'meine', 'ihr', 'ihre', 'für', 'von', 'mit', 'im', 'in', 'zu', 'zur', 'zum', 'ist', 'sind', 'bitte', 'ich'],
  },
  nl: {
    copulas: ['is', 'zijn', 'bedraagt', 'bedragen', 'wordt', 'moet zijn', 'luidt'],
    determiners: ['de', 'het', 'een', 'mijn', 'zijn', 'haar', 'hun', 'ons', 'onze', 'uw'],
    anaphors: ['zijn', 'haar', 'hun', 'hij', 'zij', 'ze'],
    templates: [
      'zet {label} op {value}',
      'vul {value} in bij {label}',
      'schrijf {value} in {label}',
      'vink {tick} aan',
      'mijn naam is {name}',
      'ik heet {name}',
      'ik ben {name}',
      'geboren op {birth}',
      'geboren {birth}',
      'ik woon in de {address}',
      'ik woon aan de {address}',
      'ik woon op {address}',
      'ik woon in {address}',
      'woont in de {address}',
      'woont aan de {address}',
      'woont op {address}',
      'woont in {address}',
      'mijn adres is {address}',
      'ik ben {value} lang => lengte',
    ],
    links: ['van'],
    conjunctions: ['en', 'ook', 'dan'],
    adjuncts: ['met'],
    requests: ['graag', 'kunt u', 'kun je', 'wilt u'],
    subjects: ['ik', 'wij', 'we'],
    ranges: [['van', 'tot'], ['vanaf', 'tot']],
    ordinals: { eerste: 1, tweede: 2, derde: 3, vierde: 4, vijfde: 5, vervolg: 2 },
    relations: ['echtgenote', 'echtgenoot', 'vrouw', 'man', 'partner', 'zoon', 'dochter', 'kind', 'vader', 'moeder', 'broer', 'zus', 'zuster', 'oom', 'tante', 'neef', 'nicht', 'opa', 'oma', 'grootvader', 'grootmoeder'],
    functionWords: ['de', 'het', 'een', 'en', 'of', 'van', 'voor', 'met', 'in', 'op', 'bij', 'mijn', 'uw', 'is', 'zijn'],
  },
  es: {
    copulas: ['es', 'son', 'será', 'asciende a', 'ascienden a', 'es de', 'son de', 'equivale a'],
    determiners: ['el', 'la', 'los', 'las', 'mi', 'mis', 'su', 'sus', 'nuestro', 'nuestra', 'un', 'una', 'tu'],
    anaphors: ['su', 'sus', 'él', 'ella'],
    templates: [
      'poner {value} en {label}',
      'ponga {value} en {label}',
      'escribir {value} en {label}',
      'escriba {value} en {label}',
      'marcar {tick}',
      'marque {tick}',
      'me llamo {name}',
      'mi nombre es {name}',
      'soy {name}',
      'nacido el {birth}',
      'nacida el {birth}',
      'vivo en {address}',
      'resido en {address}',
      'vive en {address}',
      'reside en {address}',
      'domiciliado en {address}',
      'domiciliada en {address}',
      'con domicilio en {address}',
      'mi dirección es {address}',
      'mi domicilio es {address}',
    ],
    links: ['de', 'del'],
    conjunctions: ['y', 'e', 'además', 'así como'],
    adjuncts: ['con'],
    requests: ['por favor', 'puede', 'podría'],
    subjects: ['yo', 'nosotros'],
    ranges: [['del', 'al'], ['desde', 'hasta'], ['de', 'a']],
    ordinals: { primer: 1, primero: 1, primera: 1, segundo: 2, segunda: 2, tercer: 3, tercero: 3, tercera: 3, cuarto: 4, cuarta: 4, continuación: 2 },
    relations: ['esposa', 'esposo', 'cónyuge', 'marido', 'mujer', 'pareja', 'hijo', 'hija', 'padre', 'madre', 'hermano', 'hermana', 'tío', 'tía', 'sobrino', 'sobrina', 'abuelo', 'abuela', 'primo', 'prima'],
    functionWords: ['el', 'la', 'los', 'las', 'de', 'del', 'y', 'o', 'un', 'una', 'mi', 'mis', 'su', 'sus', 'para', 'por', 'con', 'en', 'es', 'son'],
  },
  it: {
    copulas: ['è', 'sono', 'ammonta a', 'ammontano a', 'sarà', 'è di', 'sono di', 'vale'],
    determiners: ['il', 'lo', 'la', 'i', 'gli', 'le', "l'", 'mio', 'mia', 'miei', 'mie', 'il mio', 'la mia', 'i miei', 'le mie', 'suo', 'sua', 'il suo', 'la sua', 'un', 'una', 'uno'],
    anaphors: ['suo', 'sua', 'il suo', 'la sua', 'i suoi', 'le sue', 'lui', 'lei'],
    templates: [
      'mettere {value} in {label}',
      'metti {value} in {label}',
      'scrivere {value} in {label}',
      'scrivi {value} in {label}',
      'spuntare {tick}',
      'spunta {tick}',
      'mi chiamo {name}',
      'il mio nome è {name}',
      'sono {name}',
      'nato il {birth}',
      'nata il {birth}',
      'abito in {address}',
      'abito a {address}',
      'vivo in {address}',
      'vivo a {address}',
      'risiedo in {address}',
      'abita in {address}',
      'abita a {address}',
      'vive in {address}',
      'vive a {address}',
      'risiede in {address}',
      'risiede a {address}',
      'residente in {address}',
      'residente a {address}',
      'il mio indirizzo è {address}',
    ],
    links: ['di', 'del', 'della'],
    conjunctions: ['e', 'ed', 'inoltre', 'nonché'],
    adjuncts: ['con'],
    requests: ['per favore', 'può', 'potrebbe'],
    subjects: ['io', 'noi'],
    ranges: [['dal', 'al'], ['da', 'a']],
    ordinals: { primo: 1, prima: 1, secondo: 2, seconda: 2, terzo: 3, terza: 3, quarto: 4, quarta: 4, seguito: 2 },
    relations: ['moglie', 'marito', 'coniuge', 'compagno', 'compagna', 'figlio', 'figlia', 'padre', 'madre', 'fratello', 'sorella', 'zio', 'zia', 'nipote', 'nonno', 'nonna', 'cugino', 'cugina'],
    functionWords: ['il', 'lo', 'la', 'i', 'gli', 'le', 'l', 'di', 'del', 'della', 'e', 'o', 'un', 'una', 'mio', 'mia', 'suo', 'sua', 'per', 'con', 'in', 'da'],
  },
  pt: {
    copulas: ['é', 'são', 'será', 'é de', 'são de', 'ascende a', 'totaliza'],
    determiners: ['o', 'a', 'os', 'as', 'meu', 'minha', 'meus', 'minhas', 'o meu', 'a minha', 'os meus', 'as minhas', 'seu', 'sua', 'o seu', 'a sua', 'um', 'uma'],
    anaphors: ['seu', 'sua', 'o seu', 'a sua', 'dele', 'dela', 'ele', 'ela'],
    templates: [
      'colocar {value} em {label}',
      'coloque {value} em {label}',
      'escrever {value} em {label}',
      'escreva {value} em {label}',
      'marcar {tick}',
      'marque {tick}',
      'chamo-me {name}',
      'eu me chamo {name}',
      'me chamo {name}',
      'o meu nome é {name}',
      'meu nome é {name}',
      'sou {name}',
      'nascido em {birth}',
      'nascida em {birth}',
      'nascido a {birth}',
      'nascida a {birth}',
      'moro em {address}',
      'moro na {address}',
      'moro no {address}',
      'resido em {address}',
      'resido na {address}',
      'mora em {address}',
      'mora na {address}',
      'mora no {address}',
      'reside em {address}',
      'reside na {address}',
      'residente em {address}',
      'residente na {address}',
      'a minha morada é {address}',
      'o meu endereço é {address}',
    ],
    links: ['de', 'do', 'da'],
    conjunctions: ['e', 'também'],
    adjuncts: ['com'],
    requests: ['por favor', 'pode', 'poderia'],
    subjects: ['eu', 'nós'],
    ranges: [['de', 'a'], ['desde', 'até']],
    ordinals: { primeiro: 1, primeira: 1, segundo: 2, segunda: 2, terceiro: 3, terceira: 3, quarto: 4, quarta: 4, continuação: 2 },
    relations: ['esposa', 'esposo', 'cônjuge', 'marido', 'mulher', 'companheiro', 'companheira', 'filho', 'filha', 'pai', 'mãe', 'irmão', 'irmã', 'tio', 'tia', 'sobrinho', 'sobrinha', 'avô', 'avó', 'primo', 'prima'],
    functionWords: ['o', 'a', 'os', 'as', 'de', 'do', 'da', 'dos', 'das', 'e', 'ou', 'um', 'uma', 'meu', 'minha', 'seu', 'sua', 'para', 'por', 'com', 'em', 'no', 'na'],
  },
};

/**
 * Words that read the same as a field's words in any language: each phrase (lower case, accents off)
 * is rewritten to its concept before a fact's name and a field's label are compared, so "Vorname",
 * "prénom" and "given name" all match a field labelled "First name". Longer phrases are applied first.
 */
export const FIELD_CONCEPTS: Record<string, string[]> = {
  fullname: ['full name', 'nom et prenom', 'nom et prenoms', 'nom prenom', 'prenom et nom', 'nom complet', 'vor- und nachname', 'vor und nachname', 'vollstandiger name', 'volledige naam', 'nombre completo', 'nome completo', 'nome e cognome', 'name and surname'],
  firstname: ['first name', 'first names', 'given name', 'given names', 'forename', 'forenames', 'christian name', 'prenom', 'prenoms', 'vorname', 'vornamen', 'voornaam', 'voornamen', 'nombre de pila', 'nombres', 'primeiro nome', 'nome proprio'],
  lastname: ['last name', 'surname', 'family name', 'nom de famille', 'nom de naissance', 'nom patronymique', 'nachname', 'familienname', 'zuname', 'achternaam', 'familienaam', 'apellidos', 'apellido', 'cognome', 'apelido', 'sobrenome'],
  dob: ['date of birth', 'birth date', 'date naissance', 'birthdate', 'birthday', 'date de naissance', 'ne le', 'nee le', 'geburtsdatum', 'geboren am', 'geboortedatum', 'fecha de nacimiento', 'data di nascita', 'data de nascimento'],
  zip: ['postal code', 'post code', 'postcode', 'zip code', 'zipcode', 'zip', 'code postal', 'postleitzahl', 'plz', 'postcode', 'codigo postal', 'cap', 'codice postale', 'cp'],
  city: ['city', 'town', 'ville', 'localite', 'commune', 'ort', 'stadt', 'wohnort', 'woonplaats', 'plaats', 'ciudad', 'localidad', 'poblacion', 'citta', 'comune', 'localita', 'cidade', 'localidade'],
  country: ['country', 'pays', 'land', 'staat', 'pais', 'paese', 'nazione', 'stato'],
  street: ['street', 'rue', 'voie', 'strasse', 'straße', 'straat', 'calle', 'via', 'rua'],
  housenumber: ['house number', 'house nr', 'house no', 'street number', 'numero de rue', 'hausnummer', 'hausnr', 'huisnummer', 'numero de casa', 'numero civico', 'civico'],
  phone: ['telephone number', 'phone number', 'telephone', 'phone', 'tel', 'mobile', 'cell phone', 'telefon', 'telefoon', 'telefono', 'handy', 'gsm', 'portable'],
  email: ['e mail address', 'e mail adresse', 'email address', 'e mail', 'email', 'courriel', 'adresse electronique', 'mail', 'correo electronico', 'posta elettronica'],
  favorite: ['favourite'],
  color: ['colour'],
  license: ['licence'],
  center: ['centre'],
  number: ['numero', 'number', 'nummer', 'n', 'nr', 'num'],
  relationship: ['relationship', 'relation', 'lien de parente', 'lien avec', 'lien', 'parente', 'verwandtschaftsverhaltnis', 'verwandtschaft', 'beziehung', 'relatie', 'verwantschap', 'parentesco', 'relacion', 'parentela', 'relazione', 'grau de parentesco'],
  signplace: ['fait a', 'faite a', 'lieu de signature', 'place of signature', 'place of signing', 'signed at', 'signed in', 'ort der unterschrift', 'unterschriftsort', 'lugar de firma', 'luogo di firma', 'local de assinatura', 'plaats van ondertekening'],
  height: ['height', 'taille', 'grosse', 'korpergrosse', 'lengte', 'estatura', 'altura', 'altezza', 'statura'],
  length: ['length', 'characters', 'character', 'chars', 'caracteres', 'zeichen', 'lange', 'tekens', 'lengte in tekens', 'caratteri', 'longitud', 'comprimento'],
  address: ['address', 'adresse', 'anschrift', 'adres', 'direccion', 'domicilio', 'indirizzo', 'endereco', 'morada'],
  date: ['datum', 'data', 'fecha'],
};

/**
 * Words that name a person's name alone and which part they mean on forms of that language: a bare
 * "NOM" on a French form is the family name, a bare "Name" on an English one the full name.
 */
export const BARE_NAME_WORDS: Record<'fullname' | 'lastname' | 'firstname', string[]> = {
  fullname: ['name', 'naam', 'nome'],
  lastname: ['nom'],
  firstname: ['nombre'],
};

/**
 * Feminine endings of nouns for people, and the masculine ending a form's label often prints instead
 * ("la donatrice" fills the block "Donateur", "die Antragstellerin" the field "Antragsteller"). Compared
 * without accents, before stemming, and only on words of at least `minLength` letters before the
 * ending. No ending ends another: a word fits one at most.
 */
export const FEMININE_ENDINGS: { minLength: number; endings: Array<[feminine: string, masculine: string]> } = {
  minLength: 3,
  endings: [
    ['trice', 'teur'], // fr: donatrice, directrice
    ['euse', 'eur'], // fr: vendeuse, demandeuse
    ['ienne', 'ien'], // fr: gardienne, mécanicienne
    ['iere', 'ier'], // fr: héritière, créancière
    ['erin', 'er'], // de: Antragstellerin, Verkäuferin, Schuldnerin
  ],
};

/**
 * Words before a full stop that does not end a sentence ("Apt. 4B", "Co. Ltd"). A full stop after a
 * single letter ("Jane Q. Doe", "S.A.", "S.à r.l."), inside a number ("12.50", "14.02.2020") or before
 * a lower-case word never ends one either.
 */
export const ABBREVIATIONS = new Set([
  'inc', 'ltd', 'co', 'corp', 'llc', 'plc', 'bros', 'apt', 'no', 'nr', 'nos', 'st', 'ave', 'rd', 'blvd', 'mr', 'mrs', 'ms', 'dr', 'prof', 'jr', 'sr', 'mt', 'ft', 'dept', 'etc', 'vs', 'approx', 'tel', 'fax',
  'mme', 'mlle', 'me', 'cie', 'bd', 'av', 'sté', 'ste', 'ets', 'str', 'hr', 'fr', 'nl', 'bzw', 'ca', 'geb', 'sig', 'sra', 'sr', 'sres', 'avda', 'dott', 'ing', 'sig', 'arq',
]);

/** Words that, alone in a value, mean yes or no (tick or clear a box). */
export const YES_WORDS = ['true', 'yes', 'y', 'x', '✓', '✔', 'checked', 'ticked', 'on', 'selected', 'tick', 'tick it', 'check it', 'select it', 'cocher', 'à cocher', 'ankreuzen', 'aankruisen', 'oui', 'ja', 'si', 'sí', 'sim'];
export const NO_WORDS = ['false', 'no', 'n', 'unchecked', 'off', 'none', 'non', 'nein', 'nee', 'não', 'nao'];

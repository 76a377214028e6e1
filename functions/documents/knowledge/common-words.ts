/**
 * The most common short words of the Latin-script languages documents come in (articles,
 * prepositions, pronouns, auxiliaries), lower case with accents off. Running text in any of these
 * languages is a third or more such words; a text layer whose fonts map to the wrong characters
 * ("9ffbiffdjn`k_cfZXcj" for "Book rooms with locals") has next to none. Used by ../text-sense.ts,
 * and by ../tables.ts (lines of running text whose word gaps line up are no table).
 * To extend: add a language's words (frequent ones only: a long list would match garbage by chance).
 */
const WORDS: Record<string, string> = {
  en: `the of and to in a is that for it as with was on be by at this are from or an have not but
    which all were they their there been has had one we you he she his her its our your more can will
    would if no so than then them these those what when who how also into about other such only may
    any each new some out up do does did use used per under over between after before between both
    all any please date total page see yes`,
  fr: `le la les de des du un une et est en que qui dans pour par sur au aux ce cette ces il elle ils
    nous vous se sont pas plus ne avec son sa ses leur leurs ou mais tout tous etre avoir fait comme
    entre sans sous apres avant lors date page total oui non`,
  de: `der die das den dem des ein eine einer eines und ist sind zu im in von mit auf fur bei aus an
    als auch nicht sich es er sie wir ihr wird werden wurde oder aber nach uber unter vor durch um
    bis zum zur noch nur so wie dass diese dieser dieses kann seite datum gesamt ja nein`,
  nl: `de het een en van in is op te dat die voor met zijn niet aan er als om ook door bij uit naar
    maar dan of wordt worden deze dit wij u hij zij ze tot over onder datum pagina totaal ja nee`,
  es: `el la los las de del un una y en que es por para con no se su sus al lo como mas pero o este
    esta estos estas son ser fue ha han entre sin sobre hasta desde cuando muy tambien fecha pagina
    total si`,
  it: `il lo la i gli le di del della dei delle un una e in che per con non si su al alla da dal come
    piu ma o questo questa sono essere stato ha hanno tra senza sotto anche data pagina totale`,
  pt: `o a os as de do da dos das um uma e em no na nos nas que por para com nao se seu sua ao como
    mais mas ou este esta isso sao ser foi tem entre sem sobre ate desde data pagina total sim`,
  sv: `och i att det som en ett pa ar av for med till den de inte om har var jag vi ni han hon kan
    eller men fran vid sig datum sida`,
  da: `og i at det som en et pa er af for med til den de ikke om har var jeg vi han hun kan eller men
    fra ved sig dato side`,
  no: `og i at det som en et pa er av for med til den de ikke om har var jeg vi han hun kan eller men
    fra ved seg dato side`,
  pl: `i w na z do nie sie jest to ze o jak ale po co od za przez dla jego jej sa byc oraz lub tak`,
  cs: `a v na se je to ze z do o s k jak ale po od za pro jeho jsou byt nebo tak`,
  ro: `si in de la cu pe din care este sunt un o ca nu se mai sau pentru ale al`,
  tr: `ve bir bu da de ile icin olarak olan gibi daha ne ama veya her`,
  id: `dan yang di ke dari untuk dengan ini itu pada adalah tidak akan atau juga oleh dalam`,
};

/** Every common word of every language above. */
export const COMMON_WORDS: ReadonlySet<string> = new Set(Object.values(WORDS).flatMap((words) => words.split(/\s+/).filter(Boolean)));

const ASCII = /^[\x00-\x7f]*$/;

/** Lower case without accents ("Être" → "etre"), the form COMMON_WORDS keeps. */
export function plainWord(word: string): string {
  // ASCII has nothing to decompose or strip (most words: the slow path was ~1% of a PDF read).
  if (ASCII.test(word)) return word.toLowerCase();
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

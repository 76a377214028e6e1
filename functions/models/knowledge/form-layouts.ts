/**
 * Standard forms printed alike on every copy, whose boxes say what their values are by their place:
 * the engine finds the form's printed captions on a page, fits the form's layout to where they were
 * read (so a scan at any size and margin fits), and reads each box of interest at its place — also
 * where OCR cannot read the box's tiny caption, and for boxes that print no caption at all (the
 * provider's name in a UB-04's box 1).
 *
 * Positions are in thousandths of the width and height of the form printed full page (left, top of
 * a caption's first word; left, top, right, bottom of a box's value), as on the UB-04 form of the
 * NUBC. Only their relative places matter: the fit takes any scale and offset.
 *
 * To extend: add a form with a dozen or more captions printed once each on it (spread over the page:
 * four must be found to recognise the form) and the boxes whose values name a field.
 */

export interface FormCaption {
  /** As printed (letters and digits count; case, spaces and marks do not). */
  text: string;
  left: number;
  top: number;
}

/** How a box's value is read. */
export type FormBoxKind = 'name' | 'identifier' | 'date' | 'amount';

export interface FormBox {
  /** The field concept (./fields.ts) the box's value is. */
  concept: string;
  /** The box's number and caption on the form, for the reader of this file. */
  box: string;
  kind: FormBoxKind;
  left: number;
  top: number;
  right: number;
  bottom: number;
  /**
   * For a money box split into dollars and cents by a printed divider: where the cents box begins.
   * OCR reads "2169 | 50" as "216950" or "2169 50"; a value read without its cents is not read.
   */
  centsFrom?: number;
}

export interface FormLayout {
  form: string;
  /** The height of the page the positions are thousandths of, over its width. */
  aspect: number;
  captions: FormCaption[];
  boxes: FormBox[];
}

export const FORM_LAYOUTS: readonly FormLayout[] = [
  {
    form: 'UB-04 (CMS-1450), the US institutional health-care claim',
    // Printed on US letter paper, 8.5 × 11 inches.
    aspect: 11 / 8.5,
    captions: [
      { text: 'FED. TAX NO.', left: 617, top: 61 },
      { text: 'PATIENT NAME', left: 48, top: 93 },
      { text: 'PATIENT ADDRESS', left: 392, top: 94 },
      { text: 'BIRTHDATE', left: 54, top: 123 },
      { text: 'ADMISSION', left: 249, top: 120 },
      { text: 'REV. CD.', left: 54, top: 272 },
      { text: 'DESCRIPTION', left: 122, top: 272 },
      { text: 'HCPCS / RATE / HIPPS CODE', left: 398, top: 272 },
      { text: 'SERV. DATE', left: 565, top: 272 },
      { text: 'SERV. UNITS', left: 635, top: 272 },
      { text: 'TOTAL CHARGES', left: 733, top: 272 },
      { text: 'NON-COVERED CHARGES', left: 841, top: 273 },
      { text: 'CREATION DATE', left: 436, top: 611 },
      { text: 'TOTALS', left: 625, top: 612 },
      { text: 'PAYER NAME', left: 54, top: 628 },
      { text: 'HEALTH PLAN ID', left: 326, top: 628 },
      { text: 'PRIOR PAYMENTS', left: 539, top: 628 },
      { text: 'EST. AMOUNT DUE', left: 666, top: 628 },
      { text: "INSURED'S NAME", left: 52, top: 688 },
      { text: "INSURED'S UNIQUE ID", left: 384, top: 688 },
      { text: 'GROUP NAME', left: 612, top: 688 },
      { text: 'INSURANCE GROUP NO.', left: 772, top: 688 },
      { text: 'TREATMENT AUTHORIZATION CODES', left: 54, top: 748 },
      { text: 'DOCUMENT CONTROL NUMBER', left: 406, top: 747 },
      { text: 'EMPLOYER NAME', left: 696, top: 747 },
      { text: 'PRINCIPAL PROCEDURE', left: 80, top: 848 },
      { text: 'ATTENDING', left: 623, top: 850 },
      { text: 'OPERATING', left: 624, top: 880 },
      { text: 'REMARKS', left: 54, top: 907 },
    ],
    boxes: [
      { concept: 'vendor_name', box: '1, first line: the billing provider (no caption)', kind: 'name', left: 45, top: 26, right: 330, bottom: 45 },
      { concept: 'document_number', box: '3a PAT. CNTL #: the patient control number', kind: 'identifier', left: 639, top: 26, right: 895, bottom: 45 },
      { concept: 'customer_name', box: '8b PATIENT NAME', kind: 'name', left: 52, top: 102, right: 380, bottom: 119 },
      { concept: 'issue_date', box: '45, line 23: CREATION DATE', kind: 'date', left: 547, top: 606, right: 622, bottom: 626 },
      { concept: 'total', box: '47, line 23: TOTALS of the total charges', kind: 'amount', left: 683, top: 606, right: 818, bottom: 626, centsFrom: 792 },
    ],
  },
];

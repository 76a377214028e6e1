/**
 * Standard forms that print money in split boxes: dollars and cents in two boxes with a printed
 * divider and no decimal point ("41 | 40" is $41.40). OCR drops the divider ("4140") or reads it as
 * a gap ("41 40"); on these forms such an amount is read with its cents (extract-values.ts,
 * `withSplitCents`). A form is told by the marks it prints: its name and number, or a caption no
 * other document prints.
 *
 * To extend: add a form, or a mark (lower case, as printed; OCR reads these small print lines well
 * enough that an exact match is asked).
 */

export interface SplitMoneyForm {
  form: string;
  marks: string[];
}

export const SPLIT_MONEY_FORMS: readonly SplitMoneyForm[] = [
  // Total and non-covered charges (form locators 47–48, and the totals line 23).
  { form: 'UB-04 (CMS-1450), the US institutional health-care claim', marks: ['ub-04', 'ub04', 'cms-1450', 'cms 1450', 'hipps code'] },
  // Charges (24F), total charge (28), amount paid (29).
  { form: 'CMS-1500 (formerly HCFA-1500), the US professional health-care claim', marks: ['cms-1500', 'cms 1500', 'hcfa-1500', 'hcfa 1500', 'national uniform claim committee'] },
];

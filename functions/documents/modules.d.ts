// pdfjs-dist ships no typings for its worker module; pdfjs.ts only hands it over to pdf.js.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}

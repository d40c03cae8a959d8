import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from '../../../../web/src/lib/download';

describe('fileNameFromDisposition', () => {
  it.each([
    ['attachment; filename="health-records.json"', 'health-records.json'],
    ['attachment; filename=health-records.fhir.json', 'health-records.fhir.json'],
    // RFC 6266: the extended form wins over the plain one.
    ['attachment; filename="plain.json"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.json', 'résumé.json'],
    // Folders and control characters never reach the file name.
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename="a\\\\b.json"', 'b.json'],
  ])('reads %s as %s', (header, name) => {
    expect(fileNameFromDisposition(header)).toBe(name);
  });

  it.each([null, '', 'attachment', 'attachment; filename=""', 'attachment; filename=".."'])(
    'has no name in %j',
    (header) => {
      expect(fileNameFromDisposition(header)).toBeUndefined();
    },
  );
});

/**
 * What a screen reader says with a field each time focus lands on it: whether it is invalid and its
 * description (the texts `aria-describedby` names), as they are at that moment. A field focused
 * before its message is rendered is heard as valid and undescribed, even if both are there later.
 */
export const heardOnFocus = (field: HTMLElement): { invalid: boolean; description: string }[] => {
  const heard: { invalid: boolean; description: string }[] = [];
  field.addEventListener('focus', () => {
    const ids = field.getAttribute('aria-describedby')?.split(/\s+/) ?? [];
    heard.push({
      invalid: field.getAttribute('aria-invalid') === 'true',
      description: ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
    });
  });
  return heard;
};

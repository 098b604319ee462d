import { useId, useState } from 'react';
import { useGetPlatformsInUseQuery } from './api';
import { Field } from './fields';

export const PLATFORM_HINT = 'e.g. Nintendo 64; leave empty for none';

/**
 * A product's platform (issue 33): free text, checked with the shared schema like the form's other
 * fields, offering the platforms the shop already uses so one system is spelled one way. They are
 * asked for when the field is first focused: a form that is never given a platform asks for nothing.
 */
export function PlatformField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const listId = useId();
  const [wanted, setWanted] = useState(false);
  const { data: platforms = [] } = useGetPlatformsInUseQuery(undefined, { skip: !wanted });
  return (
    <>
      <Field
        label="Platform"
        value={value}
        onChange={onChange}
        hint={PLATFORM_HINT}
        list={listId}
        autoComplete="off"
        onFocus={() => setWanted(true)}
      />
      <datalist id={listId}>
        {platforms.map((platform) => (
          <option key={platform} value={platform} />
        ))}
      </datalist>
    </>
  );
}

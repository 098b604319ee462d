import { useCallback, useEffect, useId, useRef, useState, type DragEvent } from 'react';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const FILE_TYPE_MESSAGE = `File type must be ${IMAGE_TYPES.join(', ')}`;
export const TOO_MANY_FILES_MESSAGE = 'Too many files';

export interface ImageItem {
  file: File;
  /** An object URL for the preview; revoked when the item is removed, cleared or unmounted. */
  url: string;
}

/**
 * The picked images of a drop zone (spec section 5): image files only, at most `max`; extra files are
 * cut so the first `max` of the combined list stay. Returns the messages of the last pick.
 */
export function useImageFiles(max: number) {
  const [items, setItems] = useState<ImageItem[]>([]);
  const [messages, setMessages] = useState<string[]>([]);
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  });
  useEffect(() => () => itemsRef.current.forEach((item) => URL.revokeObjectURL(item.url)), []);

  const add = useCallback(
    (files: readonly File[]) => {
      const next: string[] = [];
      const images = files.filter((file) => (IMAGE_TYPES as readonly string[]).includes(file.type));
      if (images.length < files.length) next.push(FILE_TYPE_MESSAGE);
      const current = itemsRef.current;
      const room = Math.max(0, max - current.length);
      if (images.length > room) next.push(TOO_MANY_FILES_MESSAGE);
      const added = images.slice(0, room).map((file) => ({ file, url: URL.createObjectURL(file) }));
      const combined = [...current, ...added];
      itemsRef.current = combined;
      setItems(combined);
      setMessages(next);
    },
    [max],
  );

  const remove = useCallback((index: number) => {
    const removed = itemsRef.current[index];
    if (removed) URL.revokeObjectURL(removed.url);
    const rest = itemsRef.current.filter((_, i) => i !== index);
    itemsRef.current = rest;
    setItems(rest);
    setMessages([]);
  }, []);

  const clear = useCallback(() => {
    itemsRef.current.forEach((item) => URL.revokeObjectURL(item.url));
    itemsRef.current = [];
    setItems([]);
    setMessages([]);
  }, []);

  return { items, messages, add, remove, clear };
}

export interface ImageDropZoneProps {
  label: string;
  max: number;
  items: readonly ImageItem[];
  messages: readonly string[];
  onAdd: (files: File[]) => void;
  onRemove: (index: number) => void;
}

/**
 * Drag-and-drop area plus a real file input behind a button, so it works from the keyboard and with
 * screen readers. Messages are announced; each preview has its own remove button.
 */
export function ImageDropZone({ label, max, items, messages, onAdd, onRemove }: ImageDropZoneProps) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    onAdd(Array.from(event.dataTransfer?.files ?? []));
  }

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={inputId} className="text-sm font-semibold tracking-wide text-cyan-300 uppercase">
        {label}
      </label>
      <div
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex flex-col items-center gap-3 border-4 border-dashed p-6 text-center ${
          dragging ? 'border-lime-400 bg-zinc-800' : 'border-zinc-600'
        }`}
      >
        <p id={hintId} className="text-sm text-zinc-300">
          Drag and drop up to {max} images here (JPEG, PNG, WebP or GIF), or
        </p>
        <button type="button" className="btn btn-secondary" onClick={() => inputRef.current?.click()}>
          Choose images
        </button>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          accept={IMAGE_TYPES.join(',')}
          aria-describedby={hintId}
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            onAdd(Array.from(event.target.files ?? []));
            event.target.value = '';
          }}
        />
      </div>
      <div aria-live="polite">
        {messages.map((message) => (
          <p key={message} className="text-red-500">
            {message}
          </p>
        ))}
      </div>
      {items.length > 0 && (
        <ul aria-label="Selected images" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {items.map((item, index) => (
            <li key={item.url} className="flex flex-col gap-1">
              <img
                src={item.url}
                alt={`Preview of ${item.file.name}`}
                className="aspect-square w-full object-cover"
              />
              <button
                type="button"
                className="btn btn-secondary text-xs"
                onClick={() => onRemove(index)}
                aria-label={`Remove ${item.file.name}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
